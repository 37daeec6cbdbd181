import { createRoute, z } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  Deleted,
  errors,
  IdParams,
  Inserted,
  json,
  jsonBody,
  Page,
  PagingQuery,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { commentInput } from "#worker/services/comments/service.ts";
import { reportInput } from "#worker/services/comments/reports.ts";

const routes = {
  create: createRoute({
    method: "post",
    path: "/blogs/{id}/comments",
    summary: "Comment on a post, or with parent_id reply to a comment",
    middleware: [readsJson()] as const,
    request: { params: IdParams, body: jsonBody(commentInput) },
    responses: { 201: json(Inserted, "Created"), ...bodyErrors },
  }),
  reported: createRoute({
    method: "get",
    path: "/comments/reported",
    summary: "The reported comments, most recently reported first (admin)",
    request: { query: PagingQuery },
    responses: { 200: Page, ...errors },
  }),
  replies: createRoute({
    method: "get",
    path: "/comments/{id}/replies",
    summary: "A top comment's replies after the ones its post page shows (oldest first, by cursor)",
    request: { params: IdParams, query: PagingQuery },
    responses: { 200: Page, ...errors },
  }),
  remove: createRoute({
    method: "delete",
    path: "/comments/{id}",
    summary: "Delete a comment (its author, the post's writer, or an admin)",
    request: { params: IdParams },
    responses: { 200: json(Deleted), ...errors },
  }),
  report: createRoute({
    method: "post",
    path: "/comments/{id}/report",
    summary: "Report someone else's comment with a reason (spam, abuse, or other with a short note)",
    middleware: [readsJson()] as const,
    request: { params: IdParams, body: jsonBody(reportInput) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  withdraw: createRoute({
    method: "delete",
    path: "/comments/{id}/report",
    summary: "Withdraw your own report of a comment",
    request: { params: IdParams },
    responses: { 200: json(z.object({ withdrawnCount: z.number() })), ...errors },
  }),
  keep: createRoute({
    method: "delete",
    path: "/comments/{id}/reports",
    summary: "Keep a reported comment: clears its reports (admin)",
    request: { params: IdParams },
    responses: { 200: json(z.looseObject({})), ...errors },
  }),
};

/** Comments, replies and reports; a post's comment list itself is GET /api/blogs/{id}/comments. */
export const commentsApi = contractApp()
  // A comment, or with `parent_id` a reply (one level: a reply to a reply joins the same top comment).
  .openapi(routes.create, async (c) =>
    c.json(await c.var.services.comments.create(c.var.user, c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(routes.reported, async (c) =>
    sendPage(c, await c.var.services.commentReports.reported(c.var.user, c.req.valid("query"))),
  )
  .openapi(routes.replies, async (c) =>
    sendPage(c, await c.var.services.comments.replies(c.req.valid("param").id, c.req.valid("query"))),
  )
  .openapi(routes.remove, async (c) =>
    c.json(await c.var.services.comments.remove(c.var.user, c.req.valid("param").id), 200),
  )
  // Anyone signed in, once (a repeat is the same report, with the latest reason).
  .openapi(routes.report, async (c) =>
    c.json(await c.var.services.commentReports.report(c.var.user, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(routes.withdraw, async (c) =>
    c.json(await c.var.services.commentReports.withdraw(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.keep, async (c) =>
    c.json(await c.var.services.commentReports.keep(c.var.user, c.req.valid("param").id), 200),
  );
