import { createDb } from "../db";
import type { Env } from "../env";
import { createBlogService } from "./blogs";
import { createHealthService } from "./health";
import { createImageService } from "./images";

/** Every service, wired to this request's bindings. */
export function createServices(env: Env) {
  const db = createDb(env.DB);
  return {
    blogs: createBlogService(db),
    health: createHealthService(db),
    images: createImageService(env),
  };
}

export type Services = ReturnType<typeof createServices>;
