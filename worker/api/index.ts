import { Hono } from "hono";
import { authorsApi } from "./authors";
import { blogsApi } from "./blogs";
import { contactApi } from "./contact";
import { imagesApi } from "./images";
import { reviewsApi } from "./reviews";
import type { ApiEnv } from "./context";
import { apiError } from "./errors";
import { profilesApi } from "./profiles";
import { savedBlogsApi } from "./saved-blogs";
import { accountApi } from "./account";
import { authApi } from "./auth";
import { usersApi } from "./users";
import { viewsApi } from "./views";
import { newsletterApi } from "./newsletter";

/** The JSON REST contract, mounted at /api by the Worker entry. */
export const api = new Hono<ApiEnv>()
  .get("/health", async (c) => c.json(await c.var.services.health.check()))
  .route("/auth", authApi)
  .route("/auth", accountApi)
  .route("/", usersApi)
  .route("/", blogsApi)
  .route("/", viewsApi)
  .route("/", savedBlogsApi)
  .route("/", profilesApi)
  .route("/", reviewsApi)
  .route("/", authorsApi)
  .route("/", contactApi)
  .route("/", newsletterApi)
  .route("/", imagesApi);

api.onError(apiError);
