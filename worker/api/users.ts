import { createRoute, z } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  Deleted,
  errors,
  IdParams,
  json,
  jsonBody,
  Modified,
  Page,
  PagingQuery,
  readsJson,
  Record_,
  TextParam,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { recordSchema, tokenSchema } from "#worker/services/accounts/users.ts";

const routes = {
  jwt: createRoute({
    method: "post",
    path: "/jwt",
    summary: "A token for the signed-in account (the spec's /jwt)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(tokenSchema) },
    responses: { 200: json(z.looseObject({ token: z.string() })), ...bodyErrors },
  }),
  record: createRoute({
    method: "post",
    path: "/users",
    summary: "Record the signed-in person's name and email (the spec's /users)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(recordSchema) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  list: createRoute({
    method: "get",
    path: "/users",
    summary: "A page of accounts, optionally matching q (name or email) (admin)",
    request: { query: PagingQuery.extend({ q: z.string().optional() }) },
    responses: { 200: Page, ...errors },
  }),
  isAdmin: createRoute({
    method: "get",
    path: "/users/admin/{email}",
    summary: "Whether the account with this email is an admin",
    request: { params: z.object({ email: TextParam }) },
    responses: { 200: json(z.looseObject({ admin: z.boolean() })), ...errors },
  }),
  makeAdmin: createRoute({
    method: "put",
    path: "/users/admin/{id}",
    summary: "Make an account an admin (admin)",
    request: { params: IdParams },
    responses: { 200: json(Modified), ...errors },
  }),
  revokeAdmin: createRoute({
    method: "delete",
    path: "/users/admin/{id}",
    summary: "Take an account's admin role away (admin)",
    request: { params: IdParams },
    responses: { 200: json(Modified), ...errors },
  }),
  remove: createRoute({
    method: "delete",
    path: "/users/{id}",
    summary: "Delete an account (admin)",
    request: { params: IdParams },
    responses: { 200: json(Deleted), ...errors },
  }),
};

/** The spec's /jwt and /users calls. */
export const usersApi = contractApp()
  .openapi(routes.jwt, async (c) =>
    c.json(
      await c.var.services.users.issueToken(c.var.user, c.req.valid("json"), await c.var.client(), c.var.sessionId),
      200,
    ),
  )
  .openapi(routes.record, async (c) =>
    c.json(await c.var.services.users.recordUser(c.var.user, c.req.valid("json")), 200),
  )
  // A page of accounts (page/limit, optional q: name or email), with X-Total-Count and Link.
  .openapi(routes.list, async (c) => sendPage(c, await c.var.services.users.list(c.var.user, c.req.valid("query"))))
  // The /users/admin/... routes come first so that "admin" is never read as a user id.
  .openapi(routes.isAdmin, async (c) =>
    c.json(await c.var.services.users.isAdminByEmail(c.var.user, c.req.valid("param").email), 200),
  )
  .openapi(routes.makeAdmin, async (c) =>
    c.json(await c.var.services.users.makeAdmin(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.revokeAdmin, async (c) =>
    c.json(await c.var.services.users.revokeAdmin(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.remove, async (c) =>
    c.json(await c.var.services.users.remove(c.var.user, c.req.valid("param").id), 200),
  );
