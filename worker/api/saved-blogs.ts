import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/** A reader's saved list: the spec's /save-blogs and /saved-blogs. */
export const savedBlogsApi = new Hono<ApiEnv>()
  // 200, not 201: the spec's client reads only status 200 as success for this call.
  .post("/save-blogs", async (c) => c.json(await c.var.services.savedBlogs.save(c.var.user, await readJson(c)), 200))
  .delete("/save-blogs/:blogId", async (c) =>
    c.json(await c.var.services.savedBlogs.remove(c.var.user, c.req.param("blogId"))),
  )
  .get("/saved-blogs", async (c) =>
    sendPage(c, await c.var.services.savedBlogs.list(c.var.user, { email: c.req.query("email"), ...pagingOf(c) })),
  );
