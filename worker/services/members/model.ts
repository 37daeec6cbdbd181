import { z } from "zod";
import type { schema } from "#worker/db.ts";
import { optionalText, requiredText } from "#worker/services/shared/validation.ts";

export type TierRow = typeof schema.memberTiers.$inferSelect;
export type MemberRow = typeof schema.members.$inferSelect;
export type MemberStatus = MemberRow["status"];
export type Cadence = "month" | "year";

/** A Stripe reference as its id, whether Stripe sent the id or the expanded object. */
export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/** The subscription an invoice belongs to, in both of Stripe's shapes (before and after API 2025-03). */
export function invoiceSubscription(invoice: Record<string, unknown>): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: string | { id: string } } } | null;
  return idOf(parent?.subscription_details?.subscription) ?? idOf(invoice.subscription as string | null);
}

/** Stripe's subscription states in which the reader has paid access (past_due: Stripe is still retrying). */
export const PAID_SUBSCRIPTION_STATES = ["active", "trialing", "past_due"] as const;

/** The events the webhook acts on; any other is answered 200 and dropped. */
export const HANDLED_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const;

/** A member's state from what is stored: paid while Stripe says so, comped while the comp lasts, else free. */
export function memberStatus(
  row: Pick<MemberRow, "subscriptionStatus" | "compTierId" | "compUntil"> | undefined,
  now = Date.now(),
): MemberStatus {
  if (!row) return "free";
  if ((PAID_SUBSCRIPTION_STATES as readonly (string | null)[]).includes(row.subscriptionStatus)) return "paid";
  if (row.compTierId && (row.compUntil === null || row.compUntil > now)) return "comped";
  return "free";
}

const minor = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number.` })
    .int({ error: `${label} must be a whole number of cents.` })
    .min(50, { error: `${label} must be at least 50 (minor units).` })
    .max(99_999_999, { error: `${label} is too large.` });

export const newTierInput = z.object({
  name: requiredText("Name", 80),
  description: optionalText("Description", 500),
  benefits: optionalText("Benefits", 2000),
  monthly_price: minor("Monthly price"),
  yearly_price: minor("Yearly price"),
  currency: z
    .string({ error: "Currency is required." })
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{3}$/, { error: "Currency must be a three-letter ISO code such as usd." }),
  trial_days: z.coerce
    .number()
    .int()
    .min(0, { error: "Trial days must be 0 to 730." })
    .max(730, { error: "Trial days must be 0 to 730." })
    .default(0),
});

export const tierChangesInput = newTierInput.omit({ currency: true }).partial();

export const checkoutInput = z.object({
  tier_id: z.string({ error: "tier_id is required." }).min(1, { error: "tier_id is required." }),
  cadence: z.enum(["month", "year"], { error: 'cadence must be "month" or "year".' }),
  /** The post the reader came from (its call to action), kept on the session's metadata. */
  post_id: z.string().max(40).optional(),
});

export const compInput = z.object({
  tier_id: z.string({ error: "tier_id is required." }).min(1, { error: "tier_id is required." }),
  until: z.iso
    .datetime({ offset: true, error: "until must be an ISO date and time." })
    .or(z.iso.date({ error: "until must be an ISO date." }))
    .optional(),
});

/** A tier as the REST contract and the pages show it. */
export function toTier(row: TierRow) {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    benefits: row.benefits.split("\n").filter(Boolean),
    monthly_price: row.monthlyPrice,
    yearly_price: row.yearlyPrice,
    currency: row.currency,
    trial_days: row.trialDays,
    archived: row.archived,
  };
}
export type Tier = ReturnType<typeof toTier>;

/** The reader's own membership (GET /api/members/me). */
export interface MyMembership {
  status: MemberStatus;
  tier: Tier | null;
  cadence: Cadence | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  comp_until?: string | null;
}

/**
 * What the event ledger keeps of a Stripe event's object: the ids and metadata the job and the stats read (the
 * object's id, its customer, subscription, the account it names and our metadata), never the personal data some
 * objects carry (a Checkout Session's customer name, address and email; an invoice's email), which would outlive
 * an erased account here.
 */
export function ledgerCopy(value: object): Record<string, unknown> {
  const object = value as Record<string, unknown>;
  const id = (field: unknown) => idOf(field as string | { id: string } | null | undefined);
  const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
  return {
    id: object.id,
    object: object.object,
    customer: id(object.customer),
    subscription: id(object.subscription),
    client_reference_id: object.client_reference_id ?? null,
    metadata: object.metadata ?? {},
    ...(parent?.subscription_details
      ? { parent: { subscription_details: { subscription: id(parent.subscription_details.subscription) } } }
      : {}),
  };
}
