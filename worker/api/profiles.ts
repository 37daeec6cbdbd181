import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";

/** Profiles: the spec's /profile and /profiles/{id}. */
export const profilesApi = new Hono<ApiEnv>()
  .get("/profile", async (c) =>
    c.json(await c.var.services.profiles.byEmail(c.var.user, { email: c.req.query("email") })),
  )
  .post("/profile", async (c) => c.json(await c.var.services.profiles.create(c.var.user, await readJson(c)), 201))
  .get("/profiles/:id", async (c) => c.json(await c.var.services.profiles.byId(c.var.user, c.req.param("id"))))
  .put("/profiles/:id", async (c) =>
    c.json(await c.var.services.profiles.update(c.var.user, c.req.param("id"), await readJson(c))),
  );
