import { eq, sql } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import type { createMailer } from "#worker/services/mail/mailer.ts";
import { checkoutInput, memberStatus, toTier, type MyMembership } from "#worker/services/members/model.ts";
import type { StripeAccess } from "#worker/services/members/stripe.ts";
import type { createMemberSync } from "#worker/services/members/sync.ts";
import type { createTierService } from "#worker/services/members/tiers.ts";
import { Conflict, Forbidden, NotFound } from "#worker/services/shared/errors.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export const MEMBER_TEXTS = {
  unverified: "Confirm your email address before you join.",
  already: "You are already a member on this plan.",
  changeInPortal: "You already have a paid plan: change it from Manage billing in your settings.",
  archived: "This plan takes no new members.",
  noBilling: "You have no billing account yet.",
  noSubscription: "You have no paid plan to change.",
} as const;

interface BillingDeps {
  stripe: StripeAccess;
  tiers: ReturnType<typeof createTierService>;
  sync: ReturnType<typeof createMemberSync>;
  mailer: ReturnType<typeof createMailer>;
}

/** The reader's side of a membership: join (Stripe Checkout), manage (Billing Portal), cancel and resume. */
export function createBillingService(k: Kernel, deps: BillingDeps) {
  const { db } = k;
  const m = schema.members;
  const find = (userId: string) => db.query.members.findFirst({ where: eq(m.userId, userId) });
  const link = (path: string) => deps.mailer.link(k.origin, path, {});

  /** The account's one Stripe Customer: made once (an idempotency key per account), recorded before checkout. */
  async function customerOf(user: Actor): Promise<string> {
    const known = (await find(user.id))?.stripeCustomerId;
    if (known) return known;
    const customer = await deps.stripe
      .client()
      .customers.create(
        { email: user.email, name: user.name, metadata: { user_id: user.id } },
        { idempotencyKey: `customer-${user.id}` },
      );
    await db
      .insert(m)
      .values({ userId: user.id, stripeCustomerId: customer.id })
      .onConflictDoUpdate({
        target: m.userId,
        set: { stripeCustomerId: sql`coalesce(${m.stripeCustomerId}, excluded.stripe_customer_id)` },
      });
    return (await find(user.id))?.stripeCustomerId ?? customer.id;
  }

  async function subscriptionOf(actor: Actor | null) {
    const user = requireUser(actor);
    const row = await find(user.id);
    if (!row?.stripeSubscriptionId) throw new NotFound(MEMBER_TEXTS.noSubscription, "no-subscription");
    return row.stripeSubscriptionId;
  }

  return {
    async me(actor: Actor | null, now = Date.now()): Promise<MyMembership> {
      const user = requireUser(actor);
      const row = await find(user.id);
      const status = memberStatus(row, now);
      const tierId = status === "comped" ? row?.compTierId : row?.tierId;
      const tier = tierId ? await db.query.memberTiers.findFirst({ where: eq(schema.memberTiers.id, tierId) }) : null;
      return {
        status,
        tier: status === "free" || !tier ? null : toTier(tier),
        cadence: status === "paid" ? (row?.cadence ?? null) : null,
        current_period_end:
          status === "paid" && row?.currentPeriodEnd ? new Date(row.currentPeriodEnd).toISOString() : null,
        cancel_at_period_end: status === "paid" && !!row?.cancelAtPeriodEnd,
        comp_until: status === "comped" && row?.compUntil ? new Date(row.compUntil).toISOString() : null,
      };
    },

    async checkout(actor: Actor | null, input: unknown): Promise<{ url: string }> {
      const user = requireUser(actor);
      const client = deps.stripe.client();
      if (!user.emailVerified) throw new Forbidden(MEMBER_TEXTS.unverified, "email-not-verified");
      const v = parse(checkoutInput, input);
      const tier = await deps.tiers.find(v.tier_id);
      const row = await find(user.id);
      if (memberStatus(row) === "paid") {
        if (row?.tierId === tier.id) throw new Conflict(MEMBER_TEXTS.already, "already-member");
        throw new Conflict(MEMBER_TEXTS.changeInPortal, "change-in-portal");
      }
      if (tier.archived) throw new Conflict(MEMBER_TEXTS.archived, "tier-archived");
      const price = v.cadence === "year" ? tier.stripeYearlyPriceId : tier.stripeMonthlyPriceId;
      if (!price) throw new Conflict(MEMBER_TEXTS.archived, "tier-archived");
      const customer = await customerOf(user);
      const metadata = { user_id: user.id, tier_id: tier.id, ...(v.post_id ? { post_id: v.post_id } : {}) };
      const session = await client.checkout.sessions.create({
        mode: "subscription",
        customer,
        client_reference_id: user.id,
        line_items: [{ price, quantity: 1 }],
        metadata,
        subscription_data: {
          metadata: { user_id: user.id, tier_id: tier.id },
          ...(tier.trialDays > 0 ? { trial_period_days: tier.trialDays } : {}),
        },
        success_url: `${link("/membership")}?joined=1`,
        cancel_url: link("/membership"),
      });
      if (!session.url) throw new Error("Stripe answered a Checkout Session without a url");
      return { url: session.url };
    },

    async portal(actor: Actor | null): Promise<{ url: string }> {
      const user = requireUser(actor);
      const client = deps.stripe.client();
      const customer = (await find(user.id))?.stripeCustomerId;
      if (!customer) throw new NotFound(MEMBER_TEXTS.noBilling, "no-billing-account");
      const session = await client.billingPortal.sessions.create({
        customer,
        return_url: `${link("/settings")}#membership`,
      });
      return { url: session.url };
    },

    /** Cancel at the end of the paid period (access lasts until then), or take that back. */
    async setCancel(actor: Actor | null, cancel: boolean): Promise<MyMembership> {
      const client = deps.stripe.client();
      const id = await subscriptionOf(actor);
      await deps.sync.applySubscription(await client.subscriptions.update(id, { cancel_at_period_end: cancel }));
      return this.me(actor);
    },
  };
}
