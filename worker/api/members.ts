import { Hono } from "hono";
import { readBytesUpTo, readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { tooLarge } from "#worker/services/shared/errors.ts";
import { requireAdmin } from "#worker/services/shared/policy.ts";

/** Stripe's events are small; anything past this is not one of them. */
const WEBHOOK_MAX_BYTES = 512 * 1024;

/**
 * Paid memberships (worker/services/members/): the public tiers, the reader's plan (checkout, billing portal,
 * cancel, resume), the admin's tiers, members, comps and numbers, and Stripe's webhook.
 */
export const membersApi = new Hono<ApiEnv>()
  // The raw body, byte for byte: the signature is over exactly what Stripe sent.
  .post("/stripe/webhook", async (c) => {
    const bytes = await readBytesUpTo(c.req.raw.body, WEBHOOK_MAX_BYTES, () => tooLarge("The event is too large."));
    const raw = new TextDecoder().decode(bytes);
    return c.json(await c.var.services.members.sync.receive(raw, c.req.header("Stripe-Signature")));
  })
  .get("/members/tiers", async (c) => c.json({ tiers: await c.var.services.members.tiers.list() }))
  .post("/members/tiers", async (c) =>
    c.json(await c.var.services.members.tiers.create(c.var.user, await readJson(c)), 201),
  )
  .put("/members/tiers/:id", async (c) =>
    c.json(await c.var.services.members.tiers.update(c.var.user, c.req.param("id"), await readJson(c))),
  )
  .delete("/members/tiers/:id", async (c) =>
    c.json(await c.var.services.members.tiers.archive(c.var.user, c.req.param("id"))),
  )
  .post("/members/checkout", async (c) =>
    c.json(await c.var.services.members.billing.checkout(c.var.user, await readJson(c))),
  )
  .post("/members/portal", async (c) => c.json(await c.var.services.members.billing.portal(c.var.user)))
  .get("/members/me", async (c) => c.json(await c.var.services.members.billing.me(c.var.user)))
  .post("/members/me/cancel", async (c) => c.json(await c.var.services.members.billing.setCancel(c.var.user, true)))
  .post("/members/me/resume", async (c) => c.json(await c.var.services.members.billing.setCancel(c.var.user, false)))
  .get("/members/stats", async (c) => c.json(await c.var.services.members.admin.stats(c.var.user)))
  .get("/members", async (c) =>
    c.json(
      await c.var.services.members.admin.list(c.var.user, {
        status: c.req.query("status"),
        q: c.req.query("q"),
        page: c.req.query("page"),
        limit: c.req.query("limit"),
      }),
    ),
  )
  .post("/members/:userId/comp", async (c) => {
    requireAdmin(c.var.user);
    return c.json(await c.var.services.members.admin.comp(c.var.user, c.req.param("userId"), await readJson(c)));
  })
  .delete("/members/:userId/comp", async (c) =>
    c.json(await c.var.services.members.admin.uncomp(c.var.user, c.req.param("userId"))),
  );
