import { Hono } from "hono";
import type { ApiEnv } from "#worker/api/context.ts";

/**
 * The post page's view beacon: a POST (never cached: the cache policy makes every non-GET answer
 * `private, no-store`), so views count even when the page itself came from the edge cache.
 */
export const viewsApi = new Hono<ApiEnv>().post("/blogs/:id/view", async (c) =>
  c.json(
    await c.var.services.views.record(c.var.user, {
      blogId: c.req.param("id"),
      ip: c.req.header("CF-Connecting-IP") ?? "",
      userAgent: c.req.header("User-Agent") ?? "",
    }),
  ),
);
