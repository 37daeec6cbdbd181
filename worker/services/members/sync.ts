import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { log, logError } from "#worker/log.ts";
import type { MembersJob } from "#worker/queues/messages.ts";
import type { DomainEvents } from "#worker/events/index.ts";
import type { Composed, createMailer } from "#worker/services/mail/mailer.ts";
import {
  HANDLED_EVENTS,
  PAID_SUBSCRIPTION_STATES,
  idOf,
  invoiceSubscription,
  ledgerCopy,
  memberStatus,
  type MemberRow,
} from "#worker/services/members/model.ts";
import { recordMrr } from "#worker/services/members/mrr.ts";
import {
  WEBHOOK_TOLERANCE_SECONDS,
  webhookCrypto,
  type Stripe,
  type StripeAccess,
} from "#worker/services/members/stripe.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import type { Kernel } from "#worker/services/kernel.ts";

type Mailer = ReturnType<typeof createMailer>;

export interface SyncDeps {
  stripe: StripeAccess;
  mailer: Mailer;
}

const badSignature = () =>
  new ValidationError(
    { "Stripe-Signature": "The signature is missing, wrong or too old." },
    "The webhook's signature could not be verified.",
    "bad-signature",
  );

/**
 * Stripe -> the members table. The webhook verifies an event, records its id once (stripe_events) and queues it;
 * the queue's job reads the subscription again from Stripe and sets the member from it. Events come twice and
 * out of order, so the state is never taken from an event's copy, and a mail goes out only with the write that
 * changed what it reports (a compare-and-set on updated_at).
 */
export function createMemberSync(k: Kernel, deps: SyncDeps) {
  const { db, events } = k;
  const origin = k.origin;
  /** Where a member manages their plan (every membership mail links it). */
  const settingsUrl = () => deps.mailer.link(origin, "/settings", {}) + "#membership";
  const m = schema.members;
  const e = schema.stripeEvents;

  async function memberOf(customerId: string | null, userId: string | null): Promise<MemberRow | undefined> {
    if (customerId) {
      const row = await db.query.members.findFirst({ where: eq(m.stripeCustomerId, customerId) });
      if (row) return row;
    }
    return userId ? db.query.members.findFirst({ where: eq(m.userId, userId) }) : undefined;
  }

  async function userOf(id: string) {
    return db.query.users.findFirst({ where: eq(schema.users.id, id), columns: { name: true, email: true } });
  }

  async function tierName(id: string | null): Promise<string> {
    if (!id) return "membership";
    const tier = await db.query.memberTiers.findFirst({ where: eq(schema.memberTiers.id, id) });
    return tier?.name ?? "membership";
  }

  /**
   * Stops a gone account's billing now: deletes its Customer (every subscription of it ends, even one a checkout
   * opened before the deletion makes later), else cancels the one subscription. Already gone at Stripe is an
   * invalid request there: nothing left to do. Any other failure throws, and the queue tries again.
   */
  async function cancelAtStripe(job: Extract<MembersJob, { kind: "cancel-subscription" }>): Promise<void> {
    const client = deps.stripe.client();
    try {
      if (job.customerId) await client.customers.del(job.customerId);
      else if (job.subscriptionId) await client.subscriptions.cancel(job.subscriptionId);
    } catch (err) {
      if ((err as { type?: string }).type === "StripeInvalidRequestError") return;
      throw err;
    }
  }

  /** Sets the member from a subscription as Stripe has it now, and mails what changed. */
  async function applySubscription(sub: Stripe.Subscription, now = Date.now()): Promise<void> {
    const customerId = idOf(sub.customer);
    const member = await memberOf(customerId, sub.metadata?.user_id ?? null);
    const live = (PAID_SUBSCRIPTION_STATES as readonly string[]).includes(sub.status);
    if (!member) {
      log("warn", "members: subscription of no known member", { subscription: sub.id });
      // A live subscription of an account that is gone (paid in a checkout opened before the deletion): stop it.
      const userId = sub.metadata?.user_id;
      if (userId && live && !(await userOf(userId)))
        await cancelAtStripe({ kind: "cancel-subscription", subscriptionId: sub.id });
      return;
    }
    // An old subscription's end must not undo a newer one the member holds.
    if (member.stripeSubscriptionId && member.stripeSubscriptionId !== sub.id && !live) return;
    const item = sub.items?.data?.[0];
    const periodEnd =
      (item as { current_period_end?: number } | undefined)?.current_period_end ??
      (sub as unknown as { current_period_end?: number }).current_period_end ??
      null;
    const tierId = sub.metadata?.tier_id ?? member.tierId;
    const next = {
      stripeCustomerId: member.stripeCustomerId ?? customerId,
      stripeSubscriptionId: sub.id,
      subscriptionStatus: sub.status,
      tierId,
      cadence: (item?.price?.recurring?.interval === "year" ? "year" : "month") as "month" | "year",
      currentPeriodEnd: periodEnd === null ? null : periodEnd * 1000,
      cancelAtPeriodEnd: sub.cancel_at_period_end || sub.cancel_at !== null,
      amount: item?.price?.unit_amount ?? null,
      currency: item?.price?.currency ?? null,
    };
    const status = memberStatus({ ...member, subscriptionStatus: next.subscriptionStatus }, now);
    const stamp = Math.max(now, member.updatedAt + 1);
    // With the write, this month's MRR history (members/mrr.ts): recomputed from the members table, so it is right
    // whether or not the compare-and-set below took.
    const [updated] = await db.batch([
      db
        .update(m)
        .set({ ...next, status, updatedAt: stamp })
        .where(and(eq(m.userId, member.userId), eq(m.updatedAt, member.updatedAt)))
        .returning({ userId: m.userId }),
      recordMrr(db, now),
    ]);
    // Another job wrote first: throw, and the queue runs this again on what that job left.
    if (updated.length === 0) throw new Error("members: concurrent update, retrying");

    // Paid by this write: the event, whose subscriber beside this service (members/events.ts) mails the welcome.
    if (member.status !== "paid" && status === "paid") {
      await events.emit("member.paid", { userId: member.userId, tierId });
    } else if (member.status === "paid" && next.cancelAtPeriodEnd && !member.cancelAtPeriodEnd && live) {
      const user = await userOf(member.userId);
      if (!user) return;
      const tier = await tierName(tierId);
      const until = next.currentPeriodEnd ? new Date(next.currentPeriodEnd).toISOString().slice(0, 10) : "today";
      await deps.mailer.send({
        kind: "member-cancelled",
        to: user.email,
        params: { name: user.name, tier, until, url: settingsUrl() },
        origin,
      });
    }
  }

  /** The payment-failure mail, composed to be written in the batch that marks its event handled (once). */
  async function paymentFailed(customerId: string | null, guard: SQL, now: number): Promise<Composed | null> {
    const member = await memberOf(customerId, null);
    const user = member && (await userOf(member.userId));
    if (!member || !user) return null;
    return deps.mailer.compose(
      {
        kind: "member-payment-failed",
        to: user.email,
        params: {
          name: user.name,
          tier: await tierName(member.tierId),
          url: settingsUrl(),
        },
        origin,
      },
      now,
      guard,
    );
  }

  return {
    applySubscription,

    /** `member.paid`'s subscriber (members/events.ts): the new member's welcome, with their plan and settings link. */
    async welcome({ userId, tierId }: DomainEvents["member.paid"]): Promise<void> {
      const user = await userOf(userId);
      if (!user) return;
      await deps.mailer.send({
        kind: "member-welcome",
        to: user.email,
        params: { name: user.name, tier: await tierName(tierId), url: settingsUrl() },
        origin,
      });
    },

    /**
     * POST /api/stripe/webhook: 400 unless the raw body carries a valid signature signed within the tolerance.
     * A handled event is recorded once and queued; a repeat of one not yet handled is queued again (the job is
     * idempotent), a repeat of a handled one is dropped.
     */
    async receive(rawBody: string, signature: string | undefined): Promise<{ received: true; queued: boolean }> {
      // Off (503) before anything is read: Stripe keeps retrying until the site is set up.
      const client = deps.stripe.client();
      const secret = deps.stripe.webhookSecret();
      if (!signature) throw badSignature();
      let event: Stripe.Event;
      try {
        event = await client.webhooks.constructEventAsync(
          rawBody,
          signature,
          secret,
          WEBHOOK_TOLERANCE_SECONDS,
          webhookCrypto,
        );
      } catch {
        throw badSignature();
      }
      if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return { received: true, queued: false };
      await db
        .insert(e)
        .values({ id: event.id, type: event.type, payload: JSON.stringify(ledgerCopy(event.data.object)) })
        .onConflictDoNothing();
      const row = await db.query.stripeEvents.findFirst({ where: eq(e.id, event.id), columns: { handledAt: true } });
      if (row?.handledAt) return { received: true, queued: false };
      const job: MembersJob = { kind: "stripe-event", eventId: event.id };
      if (k.env.MEMBERS_QUEUE) await k.env.MEMBERS_QUEUE.send(job);
      else await this.run(job);
      return { received: true, queued: true };
    },

    /**
     * `account.erased`'s subscriber (members/events.ts): the member row went with the account, so this month's MRR
     * is written again without it, and a subscription they held is cancelled at Stripe through the queue (a deleted
     * account is never charged again). Never fails the deletion: a failure is logged.
     */
    async accountErased(
      { stripeCustomerId, stripeSubscriptionId }: DomainEvents["account.erased"],
      now = Date.now(),
    ): Promise<void> {
      // The money first, each step on its own (a failed MRR write must not keep the cancellation from its queue).
      if (stripeCustomerId || stripeSubscriptionId) {
        const job: MembersJob = {
          kind: "cancel-subscription",
          subscriptionId: stripeSubscriptionId,
          customerId: stripeCustomerId,
        };
        try {
          if (k.env.MEMBERS_QUEUE) await k.env.MEMBERS_QUEUE.send(job);
          else await cancelAtStripe(job);
        } catch (err) {
          logError("members: could not queue a deleted account's cancellation", err, { customer: stripeCustomerId });
        }
      }
      try {
        await recordMrr(db, now);
      } catch (err) {
        logError("members: MRR after an account's deletion", err);
      }
    },

    /** The queue's job: act on one recorded event, once; or cancel a deleted account's subscription. */
    async run(job: MembersJob, now = Date.now()): Promise<void> {
      if (job.kind === "cancel-subscription") return cancelAtStripe(job);
      const row = await db.query.stripeEvents.findFirst({ where: eq(e.id, job.eventId) });
      if (!row || row.handledAt) return;
      const object = JSON.parse(row.payload) as Record<string, unknown>;
      let subscriptionId: string | null = null;
      // A mail about the event itself is kept only if this run is the one that marks it handled.
      const handledHere = sql`exists (select 1 from stripe_events where id = ${row.id} and handled_at = ${now})`;
      let mail: Composed | null = null;
      switch (row.type) {
        case "checkout.session.completed": {
          const userId = typeof object.client_reference_id === "string" ? object.client_reference_id : null;
          const customerId = idOf(object.customer as string | null);
          subscriptionId = idOf(object.subscription as string | null);
          // The customer was recorded at checkout; a session made elsewhere names the account here.
          if (userId && customerId)
            await db
              .update(m)
              .set({ stripeCustomerId: customerId })
              .where(and(eq(m.userId, userId), isNull(m.stripeCustomerId)));
          break;
        }
        case "invoice.paid":
        case "invoice.payment_failed":
          subscriptionId = invoiceSubscription(object);
          if (row.type === "invoice.payment_failed")
            mail = await paymentFailed(idOf(object.customer as string | null), handledHere, now);
          break;
        default:
          subscriptionId = typeof object.id === "string" ? object.id : null;
      }
      if (subscriptionId)
        await applySubscription(await deps.stripe.client().subscriptions.retrieve(subscriptionId), now);
      const mark = db
        .update(e)
        .set({ handledAt: now })
        .where(and(eq(e.id, row.id), isNull(e.handledAt)));
      if (!mail) {
        await mark;
        return;
      }
      await db.batch([mark, ...mail.statements]);
      await deps.mailer.deliver([mail], now);
    },
  };
}
