import { createRoute } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  errors,
  Inserted,
  json,
  jsonBody,
  Page,
  PagingQuery,
  readsJson,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { contactInput } from "#worker/services/contact.ts";

const routes = {
  send: createRoute({
    method: "post",
    path: "/contact",
    summary: "Send a message through the contact form",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(contactInput) },
    responses: { 201: json(Inserted, "Created"), ...bodyErrors },
  }),
  inbox: createRoute({
    method: "get",
    path: "/contact",
    summary: "The contact messages, a page at a time (admin)",
    request: { query: PagingQuery },
    responses: { 200: Page, ...errors },
  }),
};

/** The contact form's /contact call, and the admin inbox that reads it. */
export const contactApi = contractApp()
  .openapi(routes.send, async (c) =>
    c.json(await c.var.services.contact.send(c.var.user, c.req.valid("json"), c.req.header("CF-Connecting-IP")), 201),
  )
  .openapi(routes.inbox, async (c) =>
    sendPage(c, await c.var.services.contact.inboxPage(c.var.user, c.req.valid("query"))),
  );
