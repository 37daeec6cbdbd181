import { createRoute, z } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  errors,
  IdParam,
  Inserted,
  json,
  jsonBody,
  Modified,
  Deleted,
  PagingQuery,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { blogChangesInput, newBlogInput } from "#worker/services/blogs/input.ts";

const byId = z.object({ id: IdParam });
const list = json(z.array(Record_), "A page of records (X-Total-Count and Link headers)");

const routes = {
  latest: createRoute({
    method: "get",
    path: "/latest-blogs",
    summary: "The newest published posts",
    responses: { 200: json(z.array(Record_)), ...errors },
  }),
  list: createRoute({
    method: "get",
    path: "/blogs",
    summary: "Published posts, newest first, one page at a time (limit, cursor or page)",
    request: { query: PagingQuery },
    responses: { 200: list, ...errors },
  }),
  comments: createRoute({
    method: "get",
    path: "/blogs/{id}/comments",
    summary: "A post's comments, newest first, a page at a time",
    request: { params: byId, query: PagingQuery },
    responses: { 200: list, ...errors },
  }),
  one: createRoute({
    method: "get",
    path: "/blogs/{id}",
    summary: "One post (a draft only for its writer and admins)",
    request: { params: byId },
    responses: { 200: json(Record_), ...errors },
  }),
  create: createRoute({
    method: "post",
    path: "/blogs",
    summary: "Write a post (publish, save as draft or schedule)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(newBlogInput) },
    responses: { 201: json(Inserted, "Created"), ...bodyErrors },
  }),
  adminUpdate: createRoute({
    method: "put",
    path: "/blogs/{id}",
    summary: "Change a post",
    middleware: [readsJson()] as const,
    request: { params: byId, body: jsonBody(blogChangesInput) },
    responses: { 200: json(Modified), ...bodyErrors },
  }),
  remove: createRoute({
    method: "delete",
    path: "/blogs/{id}",
    summary: "Delete a post",
    request: { params: byId },
    responses: { 200: json(Deleted), ...errors },
  }),
  byAuthor: createRoute({
    method: "get",
    path: "/blog",
    summary: "A writer's posts by their email, a page at a time",
    request: { query: PagingQuery.extend({ email: z.string().optional().openapi({ format: "email" }) }) },
    responses: { 200: list, ...errors },
  }),
  writerOne: createRoute({
    method: "get",
    path: "/blog/{id}",
    summary: "One post, for its writer's edit form",
    request: { params: byId },
    responses: { 200: json(Record_), ...errors },
  }),
  writerUpdate: createRoute({
    method: "put",
    path: "/blog/{id}",
    summary: "The writer changes their post",
    middleware: [readsJson()] as const,
    request: { params: byId, body: jsonBody(blogChangesInput) },
    responses: { 200: json(Modified), ...bodyErrors },
  }),
};

/** Blogs: the spec's /latest-blogs, /blogs, /blogs/{id} and the writer's /blog calls. */
export const blogsApi = contractApp()
  .openapi(routes.latest, async (c) => c.json(await c.var.services.blogs.latest(undefined, c.var.user), 200))
  // A page at a time (page/limit or cursor); without them, the first page, newest first (decision 023).
  .openapi(routes.list, async (c) => sendPage(c, await c.var.services.blogs.list(c.req.valid("query"), c.var.user)))
  // A post's comments, newest first, a page at a time (the post page's "Show more" reads these).
  .openapi(routes.comments, async (c) =>
    sendPage(c, await c.var.services.comments.list(c.req.valid("param").id, c.req.valid("query"))),
  )
  .openapi(routes.one, async (c) => c.json(await c.var.services.blogs.byId(c.req.valid("param").id, c.var.user), 200))
  .openapi(routes.create, async (c) => c.json(await c.var.services.blogs.create(c.var.user, c.req.valid("json")), 201))
  .openapi(routes.adminUpdate, async (c) =>
    c.json(await c.var.services.blogs.adminUpdate(c.var.user, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(routes.remove, async (c) =>
    c.json(await c.var.services.blogs.remove(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.byAuthor, async (c) => {
    const { email, ...paging } = c.req.valid("query");
    return sendPage(c, await c.var.services.blogs.byAuthorEmail({ email, ...paging }, c.var.user));
  })
  .openapi(routes.writerOne, async (c) =>
    c.json(await c.var.services.blogs.byId(c.req.valid("param").id, c.var.user), 200),
  )
  .openapi(routes.writerUpdate, async (c) =>
    c.json(await c.var.services.blogs.update(c.var.user, c.req.valid("param").id, c.req.valid("json")), 200),
  );
