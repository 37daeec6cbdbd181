import { createRoute, z } from "@hono/zod-openapi";
import { tooLarge } from "#worker/services/shared/errors.ts";
import { IMPORT_MAX_BYTES, subscribeInput } from "#worker/services/newsletter/model.ts";
import { requireAdmin } from "#worker/services/shared/policy.ts";
import { NEWSLETTER_ALREADY_TEXT, NEWSLETTER_SUCCESS_TEXT } from "#worker/services/texts.ts";
import { readBytesUpTo } from "#worker/api/body.ts";
import { bodyErrors, contractApp, errors, IdParams, json, jsonBody, readsJson, Record_ } from "#worker/api/contract.ts";

const Subscribed = z.object({ subscribed: z.boolean(), already: z.boolean().optional(), message: z.string() });

const routes = {
  subscribe: createRoute({
    method: "post",
    path: "/newsletter",
    summary: "Subscribe an email (a confirmation link is mailed: double opt-in)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(subscribeInput) },
    responses: {
      200: json(Subscribed, "Already subscribed"),
      202: json(Subscribed, "A confirmation link is on its way"),
      ...bodyErrors,
    },
  }),
  subscribers: createRoute({
    method: "get",
    path: "/newsletter/subscribers",
    summary: "The subscribers, filtered by q and state, a page at a time (admin)",
    request: {
      query: z.object({ page: z.string().optional(), q: z.string().optional(), state: z.string().optional() }),
    },
    responses: { 200: json(Record_), ...errors },
  }),
  exportCsv: createRoute({
    method: "get",
    path: "/newsletter/subscribers.csv",
    summary: "The confirmed subscribers as CSV (admin)",
    responses: { 200: { description: "CSV", content: { "text/csv": { schema: z.string() } } }, ...errors },
  }),
  importCsv: createRoute({
    method: "post",
    path: "/newsletter/subscribers.csv",
    summary: "Import confirmed subscribers from CSV, at most 512 KB (admin)",
    request: { body: { required: true, content: { "text/csv": { schema: z.string() } } } },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  remove: createRoute({
    method: "delete",
    path: "/newsletter/subscribers/{id}",
    summary: "Remove a subscriber (admin)",
    request: { params: IdParams },
    responses: { 200: json(z.object({ removed: z.boolean(), email: z.string() })), ...errors },
  }),
  sends: createRoute({
    method: "get",
    path: "/newsletter/sends",
    summary: "Each post's newsletter send, a page at a time (admin)",
    request: { query: z.object({ page: z.string().optional() }) },
    responses: { 200: json(Record_), ...errors },
  }),
};

/**
 * The newsletter: anyone subscribes (a confirmation link is mailed: double opt-in); admins read the
 * subscribers, export and import confirmed ones as CSV, remove one, and see each post's send.
 */
export const newsletterApi = contractApp()
  .openapi(routes.subscribe, async (c) => {
    const body = c.req.valid("json");
    const { already } = await c.var.services.newsletter.subscribe(
      body.email,
      c.req.header("CF-Connecting-IP"),
      undefined,
      null,
      c.var.user,
    );
    if (already) return c.json({ subscribed: true, already: true, message: NEWSLETTER_ALREADY_TEXT }, 200);
    return c.json({ subscribed: true, message: NEWSLETTER_SUCCESS_TEXT }, 202);
  })
  .openapi(routes.subscribers, async (c) =>
    c.json(await c.var.services.newsletter.subscribers(c.var.user, c.req.valid("query")), 200),
  )
  .openapi(routes.exportCsv, async (c) => {
    const csv = await c.var.services.newsletter.exportCsv(c.var.user);
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="subscribers.csv"',
    });
  })
  // The CSV is read as bytes, capped, whatever type it is sent as.
  .openapi(routes.importCsv, async (c) => {
    requireAdmin(c.var.user);
    const refusal = () => tooLarge("A CSV import can be at most 512 KB.");
    if (Number(c.req.header("Content-Length") ?? "0") > IMPORT_MAX_BYTES) throw refusal();
    const text = new TextDecoder().decode(await readBytesUpTo(c.req.raw.body, IMPORT_MAX_BYTES, refusal));
    return c.json(await c.var.services.newsletter.importCsv(c.var.user, text), 200);
  })
  .openapi(routes.remove, async (c) =>
    c.json(await c.var.services.newsletter.remove(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.sends, async (c) =>
    c.json(await c.var.services.newsletter.sends(c.var.user, c.req.valid("query")), 200),
  );
