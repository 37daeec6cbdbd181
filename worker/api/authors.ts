import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/** Authors: the public /authors list and the admin's /author and /addAuthor calls. */
export const authorsApi = new Hono<ApiEnv>()
  .get("/authors", async (c) => sendPage(c, await c.var.services.authors.page(c.var.user, pagingOf(c))))
  .get("/author", async (c) => sendPage(c, await c.var.services.authors.page(c.var.user, pagingOf(c), true)))
  .get("/author/:id", async (c) => c.json(await c.var.services.authors.byId(c.var.user, c.req.param("id"))))
  .post("/addAuthor", async (c) => c.json(await c.var.services.authors.create(c.var.user, await readJson(c)), 201))
  .put("/author/:id", async (c) =>
    c.json(await c.var.services.authors.update(c.var.user, c.req.param("id"), await readJson(c))),
  )
  .delete("/author/:id", async (c) => c.json(await c.var.services.authors.remove(c.var.user, c.req.param("id"))));
