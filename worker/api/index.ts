import { Hono } from "hono";
import { authorsApi } from "#worker/api/authors.ts";
import { blogsApi } from "#worker/api/blogs.ts";
import { commentsApi } from "#worker/api/comments.ts";
import { contactApi } from "#worker/api/contact.ts";
import { draftsApi } from "#worker/api/drafts.ts";
import { imagesApi } from "#worker/api/images.ts";
import { reviewsApi } from "#worker/api/reviews.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { apiError } from "#worker/api/errors.ts";
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

/** The JSON REST contract, mounted at /api by the Worker entry. */
export const api = new Hono<ApiEnv>()
  .get("/health", async (c) => c.json(await c.var.services.health.check()))
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
  .route("/", imagesApi);

// The contract describes the routes above and itself; it is built when asked, from the routes the app has.
// The analytics beacon is mounted ahead of the session layer (worker/app.ts), so it is added here by hand.
const documented = () => ({
  routes: [...api.routes, ...analyticsHitRoutes.routes.map((r) => ({ ...r, path: `/analytics${r.path}` }))],
});
api.get("/openapi.json", (c) => c.json(openApiDocument(documented())));
api.get("/docs", (c) => c.html(openApiPage(openApiDocument(documented()))));

api.onError(apiError);
