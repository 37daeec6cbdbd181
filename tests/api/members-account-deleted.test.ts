import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { schema } from "#worker/db.ts";
import { asUser, db, makeUser } from "../support/factories";
import { sendWith } from "../support/mail";
import { deliverEvent, fakeStripe } from "../support/stripe";
import { membersWorld } from "../support/kernel";
import { clientWith } from "../support/client";

/**
 * A paying member's account is deleted (by them or an admin): Stripe must stop charging a person who is gone,
 * and the MRR history must lose what they paid (issue 46; `account.erased`, members/events.ts).
 */
let stripe: ReturnType<typeof fakeStripe>;
beforeEach(() => {
  stripe = fakeStripe();
  for (const level of ["log", "info", "warn"] as const) vi.spyOn(console, level).mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function deliver(env: Cloudflare.Env, type: string, object: Record<string, unknown>) {
  expect((await deliverEvent(env, type, object)).status).toBe(200);
}

/** This month's stored MRR of one currency (minor units), or undefined before any. */
const mrrOf = async (month: string, currency: string) =>
  (
    await db().query.memberMrrMonths.findFirst({
      where: and(eq(schema.memberMrrMonths.month, month), eq(schema.memberMrrMonths.currency, currency)),
    })
  )?.mrr;

describe("a paying member's account is deleted", () => {
  it("cancels their subscription at Stripe once, and this month's MRR no longer counts it", async () => {
    // A month and a currency of their own, so no other test's members are counted.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2032, 4, 10, 12) });
    onTestFinished(() => void vi.useRealTimers());
    const w = membersWorld();
    const admin = await makeUser({ role: "admin" });
    const made = await clientWith(w.env, await asUser(admin)).members.tiers.$post({
      json: { name: "Friends dkk", monthly_price: 4500, yearly_price: 45000, currency: "dkk" },
    });
    expect(made.status).toBe(201);
    const { insertedId } = (await made.json()) as { insertedId: string };
    const tier = (await db().query.memberTiers.findFirst({ where: eq(schema.memberTiers.id, insertedId) }))!;

    const reader = await makeUser();
    const customer = `cus_${reader.id}`;
    await db().insert(schema.members).values({ userId: reader.id, stripeCustomerId: customer });
    const sub = stripe.subscription({
      customer,
      status: "active",
      price: tier.stripeMonthlyPriceId!,
      metadata: { user_id: reader.id, tier_id: tier.id },
    }) as { id: string };
    await deliver(w.env, "customer.subscription.created", sub);
    await w.queue.drain(w.env);
    expect(await mrrOf("2032-05", "dkk")).toBe(4500);

    const deleted = await sendWith(w.env, "DELETE", `/api/users/${reader.id}`, {}, await asUser(admin));
    expect(deleted.status).toBe(200);
    await w.queue.drain(w.env);
    // Their Customer is deleted at Stripe, which ends every subscription of it.
    const deletes = stripe.requests.filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => r.path)).toEqual([`/v1/customers/${customer}`]);
    expect((stripe.store.subscriptions.get(sub.id) as { status: string }).status).toBe("canceled");
    expect(await mrrOf("2032-05", "dkk")).toBe(0);

    // Stripe then tells us the subscription ended: no member is left to change, and the job is done.
    await deliver(w.env, "customer.subscription.deleted", sub);
    await w.queue.drain(w.env);
    expect(await db().query.members.findFirst({ where: eq(schema.members.userId, reader.id) })).toBeUndefined();

    // The cancel job delivered again (a retry): Stripe refuses a second delete, which counts as done.
    await w.services().members.sync.run({ kind: "cancel-subscription", subscriptionId: sub.id, customerId: customer });
    expect(stripe.requests.filter((r) => r.method === "DELETE")).toHaveLength(2);
  });

  it("a subscription paid in a checkout opened before the account was deleted is cancelled when Stripe reports it", async () => {
    const w = membersWorld();
    const gone = await makeUser();
    await sendWith(w.env, "DELETE", `/api/users/${gone.id}`, {}, await asUser(await makeUser({ role: "admin" })));
    // Stripe makes the subscription afterwards, for a Customer this site no longer knows.
    const sub = stripe.subscription({
      customer: `cus_${gone.id}`,
      status: "active",
      price: "price_x",
      metadata: { user_id: gone.id, tier_id: "tier_x" },
    }) as { id: string };
    await deliver(w.env, "customer.subscription.created", sub);
    await w.queue.drain(w.env);
    expect(stripe.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([
      `/v1/subscriptions/${sub.id}`,
    ]);
    expect((stripe.store.subscriptions.get(sub.id) as { status: string }).status).toBe("canceled");
  });

  it("the deletion is done, and the cancellation queued, even when the MRR write fails", async () => {
    const w = membersWorld();
    const reader = await makeUser();
    await db()
      .insert(schema.members)
      .values({ userId: reader.id, stripeCustomerId: `cus_${reader.id}` });
    const sent: unknown[] = [];
    const queue = w.env.MEMBERS_QUEUE!;
    const env = {
      ...w.env,
      MEMBERS_QUEUE: { ...queue, send: async (job: unknown) => void sent.push(job) } as unknown as typeof queue,
    };
    // The history table is gone: every MRR write fails.
    await db().run(sql`alter table member_mrr_months rename to member_mrr_months_away`);
    onTestFinished(
      async () => void (await db().run(sql`alter table member_mrr_months_away rename to member_mrr_months`)),
    );
    const admin = await makeUser({ role: "admin" });
    const deleted = await sendWith(env, "DELETE", `/api/users/${reader.id}`, {}, await asUser(admin));
    expect(deleted.status).toBe(200);
    expect(await db().query.users.findFirst({ where: eq(schema.users.id, reader.id) })).toBeUndefined();
    expect(sent).toEqual([{ kind: "cancel-subscription", subscriptionId: null, customerId: `cus_${reader.id}` }]);
  });

  it("the event ledger keeps ids and metadata, never the customer's name, address or email", async () => {
    const w = membersWorld();
    const reader = await makeUser();
    await db()
      .insert(schema.members)
      .values({ userId: reader.id, stripeCustomerId: `cus_${reader.id}` });
    const session = {
      id: `cs_test_${reader.id}`,
      object: "checkout.session",
      client_reference_id: reader.id,
      customer: `cus_${reader.id}`,
      subscription: null,
      metadata: { user_id: reader.id, post_id: "post1" },
      customer_details: { email: "private.person@example.com", name: "Private Person", address: { city: "Bergen" } },
      customer_email: "private.person@example.com",
    };
    await deliver(w.env, "checkout.session.completed", session);
    await w.queue.drain(w.env);
    const rows = await db().select().from(schema.stripeEvents);
    const stored = rows.find((r) => r.payload.includes(session.id))!;
    expect(stored.handledAt).not.toBeNull();
    expect(JSON.parse(stored.payload)).toEqual({
      id: session.id,
      object: "checkout.session",
      customer: session.customer,
      subscription: null,
      client_reference_id: reader.id,
      metadata: session.metadata,
    });
    expect(stored.payload).not.toMatch(/private|Bergen/i);
  });

  it("a free account's deletion asks nothing of Stripe", async () => {
    const w = membersWorld();
    const admin = await makeUser({ role: "admin" });
    const reader = await makeUser();
    const deleted = await sendWith(w.env, "DELETE", `/api/users/${reader.id}`, {}, await asUser(admin));
    expect(deleted.status).toBe(200);
    await w.queue.drain(w.env);
    expect(stripe.requests).toEqual([]);
  });
});
