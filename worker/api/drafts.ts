import { createRoute, z } from "@hono/zod-openapi";
import { bodyErrors, contractApp, errors, json, jsonBody, readsJson, Record_ } from "#worker/api/contract.ts";
import { autosaveInput } from "#worker/services/blogs/autosave.ts";

const routes = {
  get: createRoute({
    method: "get",
    path: "/drafts/autosave",
    summary: "The signed-in writer's own autosaved Write Blogs text (null when none)",
    responses: { 200: json(z.object({ autosave: Record_.nullable() })), ...errors },
  }),
  put: createRoute({
    method: "put",
    path: "/drafts/autosave",
    summary: "Keeps what the signed-in writer is typing on Write Blogs, for their other devices",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(autosaveInput) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  clear: createRoute({
    method: "delete",
    path: "/drafts/autosave",
    summary: "Forget the signed-in writer's autosave",
    responses: { 200: json(Record_), ...errors },
  }),
};

/**
 * The signed-in writer's autosave of Write Blogs (worker/services/blogs/autosave.ts): their own copy
 * only, found by the session, never by an id, so nobody else can read or overwrite it.
 */
export const draftsApi = contractApp()
  .openapi(routes.get, async (c) => c.json({ autosave: await c.var.services.postAutosave.get(c.var.user) }, 200))
  .openapi(routes.put, async (c) => c.json(await c.var.services.postAutosave.put(c.var.user, c.req.valid("json")), 200))
  .openapi(routes.clear, async (c) => c.json(await c.var.services.postAutosave.clear(c.var.user), 200));
