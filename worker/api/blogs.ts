import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/** Blogs: the spec's /latest-blogs, /blogs, /blogs/{id} and the writer's /blog calls. */
export const blogsApi = new Hono<ApiEnv>()
  .get("/latest-blogs", async (c) => c.json(await c.var.services.blogs.latest(undefined, c.var.user)))
  // A page at a time (page/limit or cursor); without them, the first page, newest first (decision 023).
  .get("/blogs", async (c) => sendPage(c, await c.var.services.blogs.list(pagingOf(c), c.var.user)))
  // A post's comments, newest first, a page at a time (the post page's "Show more" reads these).
  .get("/blogs/:id/comments", async (c) =>
    sendPage(c, await c.var.services.comments.list(c.req.param("id"), pagingOf(c))),
  )
  .get("/blogs/:id", async (c) => c.json(await c.var.services.blogs.byId(c.req.param("id"), c.var.user)))
  .post("/blogs", async (c) => c.json(await c.var.services.blogs.create(c.var.user, await readJson(c)), 201))
  .put("/blogs/:id", async (c) =>
    c.json(await c.var.services.blogs.adminUpdate(c.var.user, c.req.param("id"), await readJson(c))),
  )
  .delete("/blogs/:id", async (c) => c.json(await c.var.services.blogs.remove(c.var.user, c.req.param("id"))))
  .get("/blog", async (c) =>
    sendPage(c, await c.var.services.blogs.byAuthorEmail({ email: c.req.query("email"), ...pagingOf(c) }, c.var.user)),
  )
  .get("/blog/:id", async (c) => c.json(await c.var.services.blogs.byId(c.req.param("id"), c.var.user)))
  .put("/blog/:id", async (c) =>
    c.json(await c.var.services.blogs.update(c.var.user, c.req.param("id"), await readJson(c))),
  );
