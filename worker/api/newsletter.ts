import { Hono } from "hono";
import { tooLarge } from "#worker/services/shared/errors.ts";
import { IMPORT_MAX_BYTES } from "#worker/services/newsletter/model.ts";
import { requireAdmin } from "#worker/services/shared/policy.ts";
import { NEWSLETTER_ALREADY_TEXT, NEWSLETTER_SUCCESS_TEXT } from "#worker/services/texts.ts";
import { readBytesUpTo, readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";

/**
 * The newsletter: anyone subscribes (a confirmation link is mailed: double opt-in); admins read the
 * subscribers, export and import confirmed ones as CSV, remove one, and see each post's send.
 */
export const newsletterApi = new Hono<ApiEnv>()
  .post("/newsletter", async (c) => {
    const body = await readJson(c);
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
  .get("/newsletter/subscribers", async (c) =>
    c.json(
      await c.var.services.newsletter.subscribers(c.var.user, {
        page: c.req.query("page"),
        q: c.req.query("q"),
        state: c.req.query("state"),
      }),
    ),
  )
  .get("/newsletter/subscribers.csv", async (c) => {
    const csv = await c.var.services.newsletter.exportCsv(c.var.user);
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="subscribers.csv"',
    });
  })
  .post("/newsletter/subscribers.csv", async (c) => {
    requireAdmin(c.var.user);
    const refusal = () => tooLarge("A CSV import can be at most 512 KB.");
    if (Number(c.req.header("Content-Length") ?? "0") > IMPORT_MAX_BYTES) throw refusal();
    const text = new TextDecoder().decode(await readBytesUpTo(c.req.raw.body, IMPORT_MAX_BYTES, refusal));
    return c.json(await c.var.services.newsletter.importCsv(c.var.user, text));
  })
  .delete("/newsletter/subscribers/:id", async (c) =>
    c.json(await c.var.services.newsletter.remove(c.var.user, c.req.param("id"))),
  )
  .get("/newsletter/sends", async (c) =>
    c.json(await c.var.services.newsletter.sends(c.var.user, { page: c.req.query("page") })),
  );
