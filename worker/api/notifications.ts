import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/**
 * The signed-in person's notifications. Personal answers: worker/cache/policy.ts shares none
 * of these URLs, so every answer is `private, no-store`; the bell's count is GET /notifications/unread.
 */
export const notificationsApi = new Hono<ApiEnv>()
  .get("/notifications", async (c) => sendPage(c, await c.var.services.notifications.list(c.var.user, pagingOf(c))))
  .get("/notifications/unread", async (c) => c.json({ unread: await c.var.services.notifications.unread(c.var.user) }))
  .post("/notifications/read", async (c) => {
    // No body: all of them; `{ids: [...]}`: those.
    const body = c.req.header("Content-Type") ? await readJson(c) : {};
    return c.json(await c.var.services.notifications.markRead(c.var.user, body));
  })
  .get("/notifications/prefs", async (c) => c.json(await c.var.services.notifications.prefs(c.var.user)))
  .put("/notifications/prefs", async (c) =>
    c.json(await c.var.services.notifications.setPrefs(c.var.user, await readJson(c))),
  );
