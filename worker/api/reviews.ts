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
  Modified,
  Page,
  PagingQuery,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { newReviewInput, reviewChangesInput, statusInput } from "#worker/services/reviews.ts";

const routes = {
  list: createRoute({
    method: "get",
    path: "/review",
    summary: "Reviews, a page at a time (admins may filter by status)",
    request: { query: PagingQuery.extend({ status: z.string().optional() }) },
    responses: { 200: Page, ...errors },
  }),
  one: createRoute({
    method: "get",
    path: "/review/{id}",
    summary: "One review",
    request: { params: IdParams },
    responses: { 200: json(Record_), ...errors },
  }),
  create: createRoute({
    method: "post",
    path: "/review",
    summary: "Write a review",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(newReviewInput) },
    responses: { 201: json(Inserted, "Created"), ...bodyErrors },
  }),
  status: createRoute({
    method: "put",
    path: "/review/{id}/status",
    summary: "Approve or hide a review (admin)",
    middleware: [readsJson()] as const,
    request: { params: IdParams, body: jsonBody(statusInput) },
    responses: { 200: json(Modified), ...bodyErrors },
  }),
  update: createRoute({
    method: "put",
    path: "/review/{id}",
    summary: "Change a review (its writer or an admin)",
    middleware: [readsJson()] as const,
    request: { params: IdParams, body: jsonBody(reviewChangesInput) },
    responses: { 200: json(Modified), ...bodyErrors },
  }),
  remove: createRoute({
    method: "delete",
    path: "/review/{id}",
    summary: "Delete a review",
    request: { params: IdParams },
    responses: { 200: json(Deleted), ...errors },
  }),
};

/** Reviews (feedback and testimonials): the spec's /review calls. */
export const reviewsApi = contractApp()
  .openapi(routes.list, async (c) => sendPage(c, await c.var.services.reviews.page(c.req.valid("query"), c.var.user)))
  .openapi(routes.one, async (c) => c.json(await c.var.services.reviews.byId(c.var.user, c.req.valid("param").id), 200))
  .openapi(routes.create, async (c) =>
    c.json(await c.var.services.reviews.create(c.var.user, c.req.valid("json")), 201),
  )
  // Admin approval: {"status": "pending" | "approved" | "hidden"}.
  .openapi(routes.status, async (c) =>
    c.json(await c.var.services.reviews.setStatus(c.var.user, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(routes.update, async (c) =>
    c.json(await c.var.services.reviews.update(c.var.user, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(routes.remove, async (c) =>
    c.json(await c.var.services.reviews.remove(c.var.user, c.req.valid("param").id), 200),
  );
