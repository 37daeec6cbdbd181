import { createRoute, z } from "@hono/zod-openapi";
import { readBytesUpTo } from "#worker/api/body.ts";
import {
  bodyErrors,
  contractApp,
  errors,
  IdParam,
  IdParams,
  Inserted,
  json,
  jsonBody,
  rawBody,
  readsJson,
  Record_,
} from "#worker/api/contract.ts";
import { tooLarge } from "#worker/services/shared/errors.ts";
import { requireAdmin } from "#worker/services/shared/policy.ts";
import { checkoutInput, compInput, newTierInput, tierChangesInput } from "#worker/services/members/model.ts";

/** Stripe's events are small; anything past this is not one of them. */
const WEBHOOK_MAX_BYTES = 512 * 1024;

const Url = z.object({ url: z.string() });
const UserParams = z.object({ userId: IdParam });
/** Minor units per lower-case ISO currency, e.g. { usd: 1234 }. */
const PerCurrency = z.record(z.string(), z.number().int());
const Stats = z
  .object({
    counts: z.object({ paid: z.number().int(), comped: z.number().int(), free: z.number().int() }),
    mrr: PerCurrency.describe("Monthly recurring revenue now: paid members' amounts, a yearly one counting a twelfth"),
    mrr_months: z
      .array(z.object({ month: z.string().describe("YYYY-MM (UTC)"), currencies: PerCurrency }))
      .describe(
        "MRR per currency at the end of each of the last twelve months, oldest first (the current month: now); " +
          "a month without a change carries the month before's value, 0 before a currency's first paid member",
      ),
    months: z.array(z.object({ month: z.string(), joined: z.number().int(), ended: z.number().int() })),
    posts: z.array(z.object({ post_id: z.string(), title: z.string().nullable(), signups: z.number().int() })),
  })
  .openapi("MemberStats");

const routes = {
  webhook: createRoute({
    method: "post",
    path: "/stripe/webhook",
    summary: "Stripe's events (raw body, Stripe-Signature checked; 400 when missing, wrong or older than 5 minutes)",
    request: {
      headers: z.object({ "stripe-signature": z.string().optional() }),
      body: rawBody("application/json", { type: "object" }, "A Stripe event, signed; read byte for byte"),
    },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  tiers: createRoute({
    method: "get",
    path: "/members/tiers",
    summary: "Membership tiers that take sign-ups, cheapest first",
    responses: { 200: json(z.object({ tiers: z.array(Record_) })), ...errors },
  }),
  createTier: createRoute({
    method: "post",
    path: "/members/tiers",
    summary: "Create a tier (admin; makes its Stripe Product and Prices)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(newTierInput) },
    responses: { 201: json(Inserted, "Created"), ...bodyErrors },
  }),
  updateTier: createRoute({
    method: "put",
    path: "/members/tiers/{id}",
    summary: "Change a tier (admin; a new amount makes a new Stripe Price)",
    middleware: [readsJson()] as const,
    request: { params: IdParams, body: jsonBody(tierChangesInput) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  archiveTier: createRoute({
    method: "delete",
    path: "/members/tiers/{id}",
    summary: "Archive a tier (admin): no new sign-ups, its members keep it",
    request: { params: IdParams },
    responses: { 200: json(Record_), ...errors },
  }),
  checkout: createRoute({
    method: "post",
    path: "/members/checkout",
    summary: "Start a Stripe Checkout for a tier and cadence; answers {url}",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(checkoutInput) },
    responses: { 200: json(Url), ...bodyErrors },
  }),
  portal: createRoute({
    method: "post",
    path: "/members/portal",
    summary: "Open Stripe's Billing Portal for the signed-in member; answers {url}",
    responses: { 200: json(Url), ...errors },
  }),
  me: createRoute({
    method: "get",
    path: "/members/me",
    summary: "The signed-in reader's plan: status, tier, cadence, renewal, cancel_at_period_end",
    responses: { 200: json(Record_), ...errors },
  }),
  cancel: createRoute({
    method: "post",
    path: "/members/me/cancel",
    summary: "Cancel at the end of the paid period",
    responses: { 200: json(Record_), ...errors },
  }),
  resume: createRoute({
    method: "post",
    path: "/members/me/resume",
    summary: "Take a cancellation back before the period ends",
    responses: { 200: json(Record_), ...errors },
  }),
  stats: createRoute({
    method: "get",
    path: "/members/stats",
    summary: "Counts of paid, comped and free accounts, MRR per currency now and per month, sign-ups (admin)",
    responses: { 200: json(Stats), ...errors },
  }),
  list: createRoute({
    method: "get",
    path: "/members",
    summary: "Members (admin), filtered by status and email, one page at a time",
    request: {
      query: z.object({
        status: z.string().optional(),
        q: z.string().optional(),
        page: z.string().optional(),
        limit: z.string().optional(),
      }),
    },
    responses: { 200: json(Record_), ...errors },
  }),
  comp: createRoute({
    method: "post",
    path: "/members/{userId}/comp",
    summary: "Give an account a tier for free, for good or until a date (admin)",
    middleware: [readsJson()] as const,
    request: { params: UserParams, body: jsonBody(compInput) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  uncomp: createRoute({
    method: "delete",
    path: "/members/{userId}/comp",
    summary: "End an account's comp (admin)",
    request: { params: UserParams },
    responses: { 200: json(Record_), ...errors },
  }),
};

/**
 * Paid memberships (worker/services/members/): the public tiers, the reader's plan (checkout, billing portal,
 * cancel, resume), the admin's tiers, members, comps and numbers, and Stripe's webhook.
 */
export const membersApi = contractApp()
  // The raw body, byte for byte: the signature is over exactly what Stripe sent.
  .openapi(routes.webhook, async (c) => {
    const bytes = await readBytesUpTo(c.req.raw.body, WEBHOOK_MAX_BYTES, () => tooLarge("The event is too large."));
    const raw = new TextDecoder().decode(bytes);
    return c.json(await c.var.services.members.sync.receive(raw, c.req.valid("header")["stripe-signature"]), 200);
  })
  .openapi(routes.tiers, async (c) => c.json({ tiers: await c.var.services.members.tiers.list() }, 200))
  .openapi(routes.createTier, async (c) =>
    c.json(await c.var.services.members.tiers.create(c.var.user, c.req.valid("json")), 201),
  )
  .openapi(routes.updateTier, async (c) =>
    c.json(await c.var.services.members.tiers.update(c.var.user, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(routes.archiveTier, async (c) =>
    c.json(await c.var.services.members.tiers.archive(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.checkout, async (c) =>
    c.json(await c.var.services.members.billing.checkout(c.var.user, c.req.valid("json")), 200),
  )
  .openapi(routes.portal, async (c) => c.json(await c.var.services.members.billing.portal(c.var.user), 200))
  .openapi(routes.me, async (c) => c.json(await c.var.services.members.billing.me(c.var.user), 200))
  .openapi(routes.cancel, async (c) => c.json(await c.var.services.members.billing.setCancel(c.var.user, true), 200))
  .openapi(routes.resume, async (c) => c.json(await c.var.services.members.billing.setCancel(c.var.user, false), 200))
  .openapi(routes.stats, async (c) => c.json(await c.var.services.members.admin.stats(c.var.user), 200))
  .openapi(routes.list, async (c) =>
    c.json(await c.var.services.members.admin.list(c.var.user, c.req.valid("query")), 200),
  )
  .openapi(routes.comp, async (c) => {
    requireAdmin(c.var.user);
    return c.json(
      await c.var.services.members.admin.comp(c.var.user, c.req.valid("param").userId, c.req.valid("json")),
      200,
    );
  })
  .openapi(routes.uncomp, async (c) =>
    c.json(await c.var.services.members.admin.uncomp(c.var.user, c.req.valid("param").userId), 200),
  );
