import { createRoute, z } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  Deleted,
  errors,
  IdParam,
  json,
  jsonBody,
  Page,
  PagingQuery,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { saveInput } from "#worker/services/saved-blogs.ts";

const routes = {
  save: createRoute({
    method: "post",
    path: "/save-blogs",
    summary: "Save a post to the reader's list",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(saveInput) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  remove: createRoute({
    method: "delete",
    path: "/save-blogs/{blogId}",
    summary: "Take a post off the reader's list",
    request: { params: z.object({ blogId: IdParam }) },
    responses: { 200: json(Deleted), ...errors },
  }),
  list: createRoute({
    method: "get",
    path: "/saved-blogs",
    summary: "The reader's saved posts, a page at a time",
    request: { query: PagingQuery.extend({ email: z.string().optional() }) },
    responses: { 200: Page, ...errors },
  }),
};

/** A reader's saved list: the spec's /save-blogs and /saved-blogs. */
export const savedBlogsApi = contractApp()
  // 200, not 201: the spec's client reads only status 200 as success for this call.
  .openapi(routes.save, async (c) => c.json(await c.var.services.savedBlogs.save(c.var.user, c.req.valid("json")), 200))
  .openapi(routes.remove, async (c) =>
    c.json(await c.var.services.savedBlogs.remove(c.var.user, c.req.valid("param").blogId), 200),
  )
  .openapi(routes.list, async (c) =>
    sendPage(c, await c.var.services.savedBlogs.list(c.var.user, c.req.valid("query"))),
  );
