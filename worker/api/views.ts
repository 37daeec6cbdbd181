import { createRoute } from "@hono/zod-openapi";
import { contractApp, errors, IdParams, json, Record_ } from "#worker/api/contract.ts";

const view = createRoute({
  method: "post",
  path: "/blogs/{id}/view",
  summary: "Count a read of a post (the post page's view beacon)",
  request: { params: IdParams },
  responses: { 200: json(Record_), ...errors },
});

/**
 * The post page's view beacon: a POST (never cached: the cache policy makes every non-GET answer
 * `private, no-store`), so views count even when the page itself came from the edge cache.
 */
export const viewsApi = contractApp().openapi(view, async (c) =>
  c.json(
    await c.var.services.views.record(c.var.user, {
      blogId: c.req.valid("param").id,
      ip: c.req.header("CF-Connecting-IP") ?? "",
      userAgent: c.req.header("User-Agent") ?? "",
    }),
    200,
  ),
);
