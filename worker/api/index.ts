import { Hono } from "hono";
import { blogsApi } from "./blogs";
import type { ApiEnv } from "./context";
import { apiError } from "./errors";

/** The JSON REST contract, mounted at /api by the Worker entry. */
export const api = new Hono<ApiEnv>()
  .get("/health", async (c) => c.json(await c.var.services.health.check()))
  .route("/", blogsApi);

api.onError(apiError);
