import { createDb } from "../db";
import type { Env } from "../env";
import { createBlogService } from "./blogs";
import { createHealthService } from "./health";
import { createImageService } from "./images";
import { createRateLimitService } from "./rate-limit";
import { createSessionService } from "./sessions";

/** Every service, wired to this request's bindings. Register new services here. */
export function createServices(env: Env) {
  const db = createDb(env.DB);
  return {
    blogs: createBlogService(db),
    health: createHealthService(db),
    images: createImageService(env),
    rateLimit: createRateLimitService(db),
    sessions: createSessionService(db, env),
  };
}

export type Services = ReturnType<typeof createServices>;
