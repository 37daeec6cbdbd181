import { createRoute, z } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  errors,
  json,
  jsonBody,
  Page,
  PagingQuery,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { prefsInput, readInput } from "#worker/services/notifications/inbox.ts";

const routes = {
  list: createRoute({
    method: "get",
    path: "/notifications",
    summary: "The signed-in person's notifications, newest first, a page at a time",
    request: { query: PagingQuery },
    responses: { 200: Page, ...errors },
  }),
  unread: createRoute({
    method: "get",
    path: "/notifications/unread",
    summary: "How many notifications are unread (the bell's count)",
    responses: { 200: json(z.object({ unread: z.number() })), ...errors },
  }),
  read: createRoute({
    method: "post",
    path: "/notifications/read",
    summary: "Mark notifications read: no body for all of them, {ids} for those",
    middleware: [readsJson(true)] as const,
    request: { body: jsonBody(readInput, "Optional: {ids}", false) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  prefs: createRoute({
    method: "get",
    path: "/notifications/prefs",
    summary: "Which notifications the signed-in person gets",
    responses: { 200: json(Record_), ...errors },
  }),
  setPrefs: createRoute({
    method: "put",
    path: "/notifications/prefs",
    summary: "Choose which notifications to get",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(prefsInput) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
};

/**
 * The signed-in person's notifications. Personal answers: worker/cache/policy.ts shares none
 * of these URLs, so every answer is `private, no-store`; the bell's count is GET /notifications/unread.
 */
export const notificationsApi = contractApp()
  .openapi(routes.list, async (c) =>
    sendPage(c, await c.var.services.notifications.list(c.var.user, c.req.valid("query"))),
  )
  .openapi(routes.unread, async (c) => c.json({ unread: await c.var.services.notifications.unread(c.var.user) }, 200))
  .openapi(routes.read, async (c) =>
    c.json(await c.var.services.notifications.markRead(c.var.user, c.req.valid("json")), 200),
  )
  .openapi(routes.prefs, async (c) => c.json(await c.var.services.notifications.prefs(c.var.user), 200))
  .openapi(routes.setPrefs, async (c) =>
    c.json(await c.var.services.notifications.setPrefs(c.var.user, c.req.valid("json")), 200),
  );
