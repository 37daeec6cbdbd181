import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";

/**
 * The signed-in writer's autosave of Write Blogs (worker/services/blogs/autosave.ts): their own copy
 * only, found by the session, never by an id, so nobody else can read or overwrite it.
 */
export const draftsApi = new Hono<ApiEnv>()
  .get("/drafts/autosave", async (c) => c.json({ autosave: await c.var.services.postAutosave.get(c.var.user) }))
  .put("/drafts/autosave", async (c) => c.json(await c.var.services.postAutosave.put(c.var.user, await readJson(c))))
  .delete("/drafts/autosave", async (c) => c.json(await c.var.services.postAutosave.clear(c.var.user)));
