import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/** Reviews (feedback and testimonials): the spec's /review calls. */
export const reviewsApi = new Hono<ApiEnv>()
  .get("/review", async (c) =>
    sendPage(c, await c.var.services.reviews.page({ ...pagingOf(c), status: c.req.query("status") }, c.var.user)),
  )
  .get("/review/:id", async (c) => c.json(await c.var.services.reviews.byId(c.var.user, c.req.param("id"))))
  .post("/review", async (c) => c.json(await c.var.services.reviews.create(c.var.user, await readJson(c)), 201))
  // Admin approval: {"status": "pending" | "approved" | "hidden"}.
  .put("/review/:id/status", async (c) =>
    c.json(await c.var.services.reviews.setStatus(c.var.user, c.req.param("id"), await readJson(c))),
  )
  .put("/review/:id", async (c) =>
    c.json(await c.var.services.reviews.update(c.var.user, c.req.param("id"), await readJson(c))),
  )
  .delete("/review/:id", async (c) => c.json(await c.var.services.reviews.remove(c.var.user, c.req.param("id"))));
