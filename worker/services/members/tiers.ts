import { asc, eq } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { newTierInput, tierChangesInput, toTier, type Tier, type TierRow } from "#worker/services/members/model.ts";
import type { Stripe, StripeAccess } from "#worker/services/members/stripe.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/**
 * Membership tiers: the public list, and the admin's create, change and archive. Each tier is a Stripe Product
 * with one Price per cadence; Prices cannot change, so a new amount gets a new Price (existing subscribers stay
 * on theirs). Stripe is called before D1 is written: a failed call leaves nothing half made here.
 */
export function createTierService(k: Kernel, deps: { stripe: StripeAccess }) {
  const { db } = k;
  const stripe = () => deps.stripe.client();
  const t = schema.memberTiers;

  async function find(id: string): Promise<TierRow> {
    const row = await db.query.memberTiers.findFirst({ where: eq(t.id, id) });
    if (!row) throw new NotFound("No such tier.", "tier-not-found");
    return row;
  }

  const price = (client: Stripe, product: string, amount: number, currency: string, interval: "month" | "year") =>
    client.prices.create({ product, unit_amount: amount, currency, recurring: { interval } });

  return {
    find,

    /** Every tier that takes sign-ups, cheapest first (the public page); admins may ask for archived ones too. */
    async list(options: { archived?: boolean } = {}): Promise<Tier[]> {
      const rows = await db.query.memberTiers.findMany({
        where: options.archived ? undefined : eq(t.archived, false),
        orderBy: [asc(t.monthlyPrice), asc(t.createdAt)],
      });
      return rows.map(toTier);
    },

    async create(actor: Actor | null, input: unknown): Promise<{ insertedId: string }> {
      requireAdmin(actor);
      const v = parse(newTierInput, input);
      const client = stripe();
      const id = newId();
      const product = await client.products.create({
        name: v.name,
        ...(v.description ? { description: v.description } : {}),
        metadata: { tier_id: id },
      });
      const monthly = await price(client, product.id, v.monthly_price, v.currency, "month");
      const yearly = await price(client, product.id, v.yearly_price, v.currency, "year");
      await db.insert(t).values({
        id,
        name: v.name,
        description: v.description ?? "",
        benefits: v.benefits ?? "",
        monthlyPrice: v.monthly_price,
        yearlyPrice: v.yearly_price,
        currency: v.currency,
        trialDays: v.trial_days,
        stripeProductId: product.id,
        stripeMonthlyPriceId: monthly.id,
        stripeYearlyPriceId: yearly.id,
      });
      return { insertedId: id };
    },

    async update(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      requireAdmin(actor);
      const v = parse(tierChangesInput, input);
      const row = await find(id);
      const changes: Partial<TierRow> = {};
      if (v.name !== undefined && v.name !== row.name) changes.name = v.name;
      if (v.description !== undefined && v.description !== row.description) changes.description = v.description;
      if (v.benefits !== undefined && v.benefits !== row.benefits) changes.benefits = v.benefits;
      if (v.trial_days !== undefined && v.trial_days !== row.trialDays) changes.trialDays = v.trial_days;
      const monthly = v.monthly_price !== undefined && v.monthly_price !== row.monthlyPrice;
      const yearly = v.yearly_price !== undefined && v.yearly_price !== row.yearlyPrice;
      if (Object.keys(changes).length === 0 && !monthly && !yearly) return { modifiedCount: 0 };
      const client = stripe();
      if (row.stripeProductId && (changes.name || changes.description !== undefined))
        await client.products.update(row.stripeProductId, {
          ...(changes.name ? { name: changes.name } : {}),
          ...(changes.description ? { description: changes.description } : {}),
        });
      if (row.stripeProductId && monthly) {
        changes.monthlyPrice = v.monthly_price!;
        changes.stripeMonthlyPriceId = (
          await price(client, row.stripeProductId, v.monthly_price!, row.currency, "month")
        ).id;
      }
      if (row.stripeProductId && yearly) {
        changes.yearlyPrice = v.yearly_price!;
        changes.stripeYearlyPriceId = (
          await price(client, row.stripeProductId, v.yearly_price!, row.currency, "year")
        ).id;
      }
      await db
        .update(t)
        .set({ ...changes, updatedAt: Date.now() })
        .where(eq(t.id, id));
      return { modifiedCount: 1 };
    },

    /** Archive: no new sign-ups (the Product is deactivated too); its members keep their plan until they leave. */
    async archive(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      requireAdmin(actor);
      const row = await find(id);
      if (row.archived) return { deletedCount: 0 };
      if (row.stripeProductId) await stripe().products.update(row.stripeProductId, { active: false });
      await db.update(t).set({ archived: true, updatedAt: Date.now() }).where(eq(t.id, id));
      return { deletedCount: 1 };
    },
  };
}
