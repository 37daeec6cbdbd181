import { createRoute } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  Deleted,
  errors,
  IdParams,
  Inserted,
  json,
  jsonBody,
  Modified,
  Page,
  PagingQuery,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { authorChangesInput, newAuthorInput } from "#worker/services/authors.ts";

const routes = {
  public: createRoute({
    method: "get",
    path: "/authors",
    summary: "The authors, a page at a time",
    request: { query: PagingQuery },
    responses: { 200: Page, ...errors },
  }),
  admin: createRoute({
    method: "get",
    path: "/author",
    summary: "The authors with their admin fields (admin)",
    request: { query: PagingQuery },
    responses: { 200: Page, ...errors },
  }),
  one: createRoute({
    method: "get",
    path: "/author/{id}",
    summary: "One author",
    request: { params: IdParams },
    responses: { 200: json(Record_), ...errors },
  }),
  create: createRoute({
    method: "post",
    path: "/addAuthor",
    summary: "Add an author (admin)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(newAuthorInput) },
    responses: { 201: json(Inserted, "Created"), ...bodyErrors },
  }),
  update: createRoute({
    method: "put",
    path: "/author/{id}",
    summary: "Change an author (admin)",
    middleware: [readsJson()] as const,
    request: { params: IdParams, body: jsonBody(authorChangesInput) },
    responses: { 200: json(Modified), ...bodyErrors },
  }),
  remove: createRoute({
    method: "delete",
    path: "/author/{id}",
    summary: "Delete an author (admin)",
    request: { params: IdParams },
    responses: { 200: json(Deleted), ...errors },
  }),
};

/** Authors: the public /authors list and the admin's /author and /addAuthor calls. */
export const authorsApi = contractApp()
  .openapi(routes.public, async (c) => sendPage(c, await c.var.services.authors.page(c.var.user, c.req.valid("query"))))
  .openapi(routes.admin, async (c) =>
    sendPage(c, await c.var.services.authors.page(c.var.user, c.req.valid("query"), true)),
  )
  .openapi(routes.one, async (c) => c.json(await c.var.services.authors.byId(c.var.user, c.req.valid("param").id), 200))
  .openapi(routes.create, async (c) =>
    c.json(await c.var.services.authors.create(c.var.user, c.req.valid("json")), 201),
  )
  .openapi(routes.update, async (c) =>
    c.json(await c.var.services.authors.update(c.var.user, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(routes.remove, async (c) =>
    c.json(await c.var.services.authors.remove(c.var.user, c.req.valid("param").id), 200),
  );
