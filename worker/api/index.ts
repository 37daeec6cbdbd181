import { createRoute, z } from "@hono/zod-openapi";
import { authorsApi } from "#worker/api/authors.ts";
import { blogsApi } from "#worker/api/blogs.ts";
import { commentsApi } from "#worker/api/comments.ts";
import { contactApi } from "#worker/api/contact.ts";
import { draftsApi } from "#worker/api/drafts.ts";
import { imagesApi } from "#worker/api/images.ts";
import { reviewsApi } from "#worker/api/reviews.ts";
import { apiError } from "#worker/api/errors.ts";
import { contractApp, errors, json } from "#worker/api/contract.ts";
import { profilesApi } from "#worker/api/profiles.ts";
import { savedBlogsApi } from "#worker/api/saved-blogs.ts";
import { accountApi } from "#worker/api/account.ts";
import { authApi } from "#worker/api/auth.ts";
import { usersApi } from "#worker/api/users.ts";
import { viewsApi } from "#worker/api/views.ts";
import { newsletterApi } from "#worker/api/newsletter.ts";
import { federationApi } from "#worker/api/federation-admin.ts";
import { followsApi } from "#worker/api/follows.ts";
import { notificationsApi } from "#worker/api/notifications.ts";
import { importsApi } from "#worker/api/imports.ts";
import { membersApi } from "#worker/api/members.ts";
import { openApiDocument, openApiPage } from "#worker/api/openapi.ts";
import { analyticsApi, analyticsHitRoutes } from "#worker/api/analytics.ts";

const routes = {
  health: createRoute({
    method: "get",
    path: "/health",
    summary: "Whether the Worker and its database answer",
    responses: { 200: json(z.looseObject({ status: z.string() })), ...errors },
  }),
  document: createRoute({
    method: "get",
    path: "/openapi.json",
    summary: "This document",
    responses: { 200: json(z.looseObject({ openapi: z.string() }), "The OpenAPI 3.1 document") },
  }),
  page: createRoute({
    method: "get",
    path: "/docs",
    summary: "This document as a readable page",
    responses: { 200: { description: "An HTML page", content: { "text/html": { schema: z.string() } } } },
  }),
};

/** The document, generated once from the declarations (they do not change while the Worker runs). */
let document: ReturnType<typeof openApiDocument> | undefined;
const contract = (): ReturnType<typeof openApiDocument> =>
  // The analytics beacon is mounted ahead of the session layer (worker/app.ts): it joins the document here.
  (document ??= openApiDocument(contractApp().route("/", api).route("/analytics", analyticsHitRoutes)));

/** The JSON REST contract, mounted at /api by the Worker entry. Its type is the typed client's (tests/support/client.ts). */
export const api = contractApp()
  .openapi(routes.health, async (c) => c.json(await c.var.services.health.check(), 200))
  .route("/auth", authApi)
  .route("/auth", accountApi)
  .route("/", usersApi)
  .route("/", blogsApi)
  .route("/", draftsApi)
  .route("/", commentsApi)
  .route("/", viewsApi)
  .route("/", savedBlogsApi)
  .route("/", profilesApi)
  .route("/", reviewsApi)
  .route("/", authorsApi)
  .route("/", contactApi)
  .route("/", newsletterApi)
  .route("/", federationApi)
  .route("/", followsApi)
  .route("/", notificationsApi)
  .route("/", importsApi)
  .route("/", analyticsApi)
  .route("/", membersApi)
  .route("/", imagesApi)
  .openapi(routes.document, (c) => c.json(contract() as { openapi: string }, 200))
  .openapi(routes.page, (c) => c.html(openApiPage(contract()), 200));

export type Api = typeof api;

api.onError(apiError);
