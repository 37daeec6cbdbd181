import { Hono } from "hono";
import type { ApiEnv } from "./context";

/** Blogs, read side: the spec's /latest-blogs, /blogs and /blogs/{id}. */
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
  .get("/blogs/:id", async (c) => c.json(await c.var.services.blogs.byId(c.req.param("id"))));
