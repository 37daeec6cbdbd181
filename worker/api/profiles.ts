import { createRoute, z } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  errors,
  IdParams,
  Inserted,
  json,
  jsonBody,
  Modified,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { createInput, updateInput } from "#worker/services/profiles.ts";

const routes = {
  byEmail: createRoute({
    method: "get",
    path: "/profile",
    summary: "A profile by its owner's email",
    request: { query: z.object({ email: z.string().optional() }) },
    responses: { 200: json(z.array(Record_)), ...errors },
  }),
  create: createRoute({
    method: "post",
    path: "/profile",
    summary: "Create the signed-in person's profile",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(createInput) },
    responses: { 201: json(Inserted, "Created"), ...bodyErrors },
  }),
  one: createRoute({
    method: "get",
    path: "/profiles/{id}",
    summary: "One profile",
    request: { params: IdParams },
    responses: { 200: json(Record_), ...errors },
  }),
  update: createRoute({
    method: "put",
    path: "/profiles/{id}",
    summary: "Change a profile (its owner)",
    middleware: [readsJson()] as const,
    request: { params: IdParams, body: jsonBody(updateInput) },
    responses: { 200: json(Modified), ...bodyErrors },
  }),
};

/** Profiles: the spec's /profile and /profiles/{id}. */
export const profilesApi = contractApp()
  .openapi(routes.byEmail, async (c) =>
    c.json(await c.var.services.profiles.byEmail(c.var.user, c.req.valid("query")), 200),
  )
  .openapi(routes.create, async (c) =>
    c.json(await c.var.services.profiles.create(c.var.user, c.req.valid("json")), 201),
  )
  .openapi(routes.one, async (c) =>
    c.json(await c.var.services.profiles.byId(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.update, async (c) =>
    c.json(await c.var.services.profiles.update(c.var.user, c.req.valid("param").id, c.req.valid("json")), 200),
  );
