import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";

/** Blogs: the spec's /latest-blogs, /blogs, /blogs/{id} and the writer's /blog calls. */
export const blogsApi = new Hono<ApiEnv>()
  .get("/latest-blogs", async (c) => c.json(await c.var.services.blogs.latest()))
  .get("/blogs", async (c) => {
    const { page, limit } = c.req.query();
    // Without page/limit the contract answers the whole list, as the spec's client expects.
    if (page === undefined && limit === undefined) return c.json(await c.var.services.blogs.all());
    const result = await c.var.services.blogs.page({ page, limit }, 10);
    c.header("X-Total-Count", String(result.total));
    return c.json(result.items);
  })
  .get("/blogs/:id", async (c) => c.json(await c.var.services.blogs.byId(c.req.param("id"), c.var.user)))
  .post("/blogs", async (c) => c.json(await c.var.services.blogs.create(c.var.user, await readJson(c)), 201))
  .put("/blogs/:id", async (c) =>
    c.json(await c.var.services.blogs.adminUpdate(c.var.user, c.req.param("id"), await readJson(c))),
  )
  .delete("/blogs/:id", async (c) => c.json(await c.var.services.blogs.remove(c.var.user, c.req.param("id"))))
  .get("/blog", async (c) => c.json(await c.var.services.blogs.byAuthorEmail({ email: c.req.query("email") })))
  .get("/blog/:id", async (c) => c.json(await c.var.services.blogs.byId(c.req.param("id"), c.var.user)))
  .put("/blog/:id", async (c) =>
    c.json(await c.var.services.blogs.update(c.var.user, c.req.param("id"), await readJson(c))),
  );
