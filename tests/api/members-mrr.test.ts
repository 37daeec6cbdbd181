import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { schema } from "#worker/db.ts";
import { asUser, db, makeUser } from "../support/factories";
import { callWith, sendWith } from "../support/mail";
import { deliverEvent, fakeStripe } from "../support/stripe";
import { membersWorld } from "../support/kernel";
import { clientWith } from "../support/client";

let stripe: ReturnType<typeof fakeStripe>;
beforeEach(() => {
  stripe = fakeStripe();
  for (const level of ["log", "info", "warn"] as const) vi.spyOn(console, level).mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes, checked field by field
const body = async (res: Response | { json(): Promise<unknown> }) => (await res.json()) as Record<string, any>;

async function makeTier(env: Cloudflare.Env, admin: Awaited<ReturnType<typeof makeUser>>, currency: string) {
  const prices = { chf: [1000, 6000], sek: [700, 8400], eur: [1000, 10000] }[currency]!;
  const res = await clientWith(env, await asUser(admin)).members.tiers.$post({
    json: { name: `Friends ${currency}`, monthly_price: prices[0]!, yearly_price: prices[1]!, currency },
  });
  expect(res.status).toBe(201);
  const { insertedId } = await body(res);
  return (await db().query.memberTiers.findFirst({ where: eq(schema.memberTiers.id, insertedId) }))!;
}

async function deliver(env: Cloudflare.Env, type: string, object: Record<string, unknown>) {
  expect((await deliverEvent(env, type, object)).status).toBe(200);
}

/** A reader whose Stripe Customer checkout recorded, and their subscription to a tier's price at the stand-in. */
async function subscriber(tier: { id: string }, price: string) {
  const reader = await makeUser();
  const customer = `cus_${reader.id}`;
  await db().insert(schema.members).values({ userId: reader.id, stripeCustomerId: customer });
  const sub = stripe.subscription({
    customer,
    status: "active",
    price,
    metadata: { user_id: reader.id, tier_id: tier.id },
  });
  return { reader, sub: sub as { id: string } };
}

/** Stripe's copy of a subscription, changed as Stripe would change it. */
const stored = (id: string) =>
  stripe.store.subscriptions.get(id) as { status: string; items: { data: { price: unknown }[] } };

describe("MRR over time", () => {
  it("keeps each month's MRR per currency from the members Stripe wrote: changes, ends, carry-forward; comps count nothing", async () => {
    // The clock (Date only) in a month of its own, so no other test's members are in these currencies' months.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2030, 0, 15, 12) });
    onTestFinished(() => void vi.useRealTimers());
    const w = membersWorld();
    const admin = await makeUser({ role: "admin" });
    const chf = await makeTier(w.env, admin, "chf");
    const sek = await makeTier(w.env, admin, "sek");

    // January: one pays 10.00 CHF a month, another 84.00 SEK a year (7.00 SEK a month).
    const monthly = await subscriber(chf, chf.stripeMonthlyPriceId!);
    const yearly = await subscriber(sek, sek.stripeYearlyPriceId!);
    await deliver(w.env, "customer.subscription.created", monthly.sub);
    await deliver(w.env, "customer.subscription.created", yearly.sub);
    await w.queue.drain(w.env, { twice: true });

    // March: the yearly member is comped while still paying (paid wins), then their subscription ends: comped now,
    // their old amount still on the row, and it counts nothing. The monthly member moves to the yearly price
    // (60.00 CHF a year: 5.00 a month); Stripe sends that change twice.
    vi.setSystemTime(Date.UTC(2030, 2, 10, 12));
    const comp = await sendWith(
      w.env,
      "POST",
      `/api/members/${yearly.reader.id}/comp`,
      { tier_id: sek.id },
      await asUser(admin),
    );
    expect(comp.status).toBe(200);
    stored(yearly.sub.id).status = "canceled";
    await deliver(w.env, "customer.subscription.deleted", { id: yearly.sub.id, object: "subscription" });
    stored(monthly.sub.id).items.data[0]!.price = stripe.store.prices.get(chf.stripeYearlyPriceId!);
    for (let i = 0; i < 2; i++)
      await deliver(w.env, "customer.subscription.updated", { id: monthly.sub.id, object: "subscription" });
    await w.queue.drain(w.env, { twice: true });
    const comped = await db().query.members.findFirst({ where: eq(schema.members.userId, yearly.reader.id) });
    expect(comped).toMatchObject({ status: "comped", amount: 8400, currency: "sek" });

    // May, through the API: the last twelve months, oldest first.
    vi.setSystemTime(Date.UTC(2030, 4, 2, 12));
    const stats = await body(await clientWith(w.env, await asUser(admin)).members.stats.$get());
    expect(stats.mrr).toMatchObject({ chf: 500 });
    expect(stats.mrr.sek).toBeUndefined();
    const series = (currency: string) =>
      (stats.mrr_months as { month: string; currencies: Record<string, number> }[]).map((m) => [
        m.month,
        m.currencies[currency],
      ]);
    const before = ["2029-06", "2029-07", "2029-08", "2029-09", "2029-10", "2029-11", "2029-12"];
    expect(series("chf")).toEqual([
      ...before.map((month) => [month, 0]),
      ["2030-01", 1000],
      ["2030-02", 1000],
      ["2030-03", 500],
      ["2030-04", 500],
      ["2030-05", 500],
    ]);
    expect(series("sek")).toEqual([
      ...before.map((month) => [month, 0]),
      ["2030-01", 700],
      ["2030-02", 700],
      ["2030-03", 0],
      ["2030-04", 0],
      ["2030-05", 0],
    ]);

    // A year on, with no write since: March's values carried in from before the window.
    vi.setSystemTime(Date.UTC(2031, 5, 1, 12));
    const later = await body(await clientWith(w.env, await asUser(admin)).members.stats.$get());
    expect(later.mrr_months[0]).toMatchObject({ month: "2030-07", currencies: { chf: 500, sek: 0 } });
    expect(later.mrr_months.at(-1)).toMatchObject({ month: "2031-06", currencies: { chf: 500, sek: 0 } });
  });

  it("a free trial has access but is not revenue: it counts from the day the trial ends and the member pays", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2033, 0, 10, 12) });
    onTestFinished(() => void vi.useRealTimers());
    const w = membersWorld();
    const admin = await makeUser({ role: "admin" });
    const eur = await makeTier(w.env, admin, "eur");
    const trial = await subscriber(eur, eur.stripeMonthlyPriceId!);
    stored(trial.sub.id).status = "trialing";
    await deliver(w.env, "customer.subscription.created", { id: trial.sub.id, object: "subscription" });
    await w.queue.drain(w.env);
    const member = await db().query.members.findFirst({ where: eq(schema.members.userId, trial.reader.id) });
    expect(member).toMatchObject({ status: "paid", subscriptionStatus: "trialing", amount: 1000 });
    const during = await body(await clientWith(w.env, await asUser(admin)).members.stats.$get());
    expect(during.mrr_months.at(-1)).toMatchObject({ month: "2033-01" });
    expect(during.mrr_months.at(-1).currencies.eur ?? 0).toBe(0);
    expect(during.mrr.eur ?? 0).toBe(0);

    vi.setSystemTime(Date.UTC(2033, 0, 24, 12));
    stored(trial.sub.id).status = "active";
    await deliver(w.env, "customer.subscription.updated", { id: trial.sub.id, object: "subscription" });
    await w.queue.drain(w.env);
    const after = await body(await clientWith(w.env, await asUser(admin)).members.stats.$get());
    expect(after.mrr_months.at(-1)).toMatchObject({ month: "2033-01", currencies: { eur: 1000 } });
    expect(after.mrr.eur).toBe(1000);
  });

  it("describes the monthly history in the OpenAPI document", async () => {
    const doc = await body(await callWith(membersWorld().env, "/api/openapi.json"));
    const schemaOf = doc.components.schemas.MemberStats;
    expect(schemaOf.properties.mrr_months.items.properties).toMatchObject({
      month: { type: "string" },
      currencies: { type: "object" },
    });
  });
});
