import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { schema } from "#worker/db.ts";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { mailbox, sendWith, callWith } from "../support/mail";
import { deliverEvent, fakeStripe, signedEvent, STRIPE_ENV } from "../support/stripe";
import { membersWorld } from "../support/kernel";
import { clientWith } from "../support/client";

let stripe: ReturnType<typeof fakeStripe>;
let logged: string[] = [];
beforeEach(() => {
  stripe = fakeStripe();
  logged = [];
  for (const level of ["log", "info", "warn", "error"] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
});
// No Stripe secret in any log line of any test here (requests, failures, webhooks).
afterEach(() => {
  vi.restoreAllMocks();
  expect(logged.length).toBeGreaterThan(0);
  for (const line of logged) for (const s of secrets) expect(line).not.toContain(s);
});

const secrets = [STRIPE_ENV.STRIPE_SECRET_KEY, STRIPE_ENV.STRIPE_WEBHOOK_SECRET];
async function body(res: { text(): Promise<string> }) {
  const text = await res.text();
  for (const s of secrets) expect(text).not.toContain(s);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes, checked field by field
  return JSON.parse(text) as Record<string, any>;
}

async function makeTier(env: Cloudflare.Env, monthly = 500) {
  const admin = await makeUser({ role: "admin" });
  const res = await clientWith(env, await asUser(admin)).members.tiers.$post({
    json: {
      name: "Supporter",
      description: "Keeps the lights on",
      benefits: "Every post\nThe archive",
      monthly_price: monthly,
      yearly_price: 5000,
      currency: "USD",
    },
  });
  expect(res.status).toBe(201);
  const { insertedId } = await body(res);
  return { admin, tier: (await db().query.memberTiers.findFirst({ where: eq(schema.memberTiers.id, insertedId) }))! };
}

describe("paid memberships", () => {
  it("are off while Stripe is unset: tiers read empty, checkout and the webhook answer 503", async () => {
    const box = mailbox();
    const env = box.env();
    const reader = await makeUser();
    expect(await body(await clientWith(env).members.tiers.$get())).toEqual({ tiers: [] });
    const res = await sendWith(
      env,
      "POST",
      "/api/members/checkout",
      { tier_id: "x", cadence: "month" },
      await asUser(reader),
    );
    expect(res.status).toBe(503);
    expect((await body(res)).error.code).toBe("memberships-off");
    const hook = await callWith(env, "/api/stripe/webhook", {
      method: "POST",
      body: "{}",
      headers: { "Stripe-Signature": "t=1,v1=x" },
    });
    expect(hook.status).toBe(503);
    expect(stripe.requests).toEqual([]);
  });

  it("admins make tiers as Stripe Products and Prices; a new amount is a new Price; archiving stops sign-ups", async () => {
    const w = membersWorld();
    const { admin, tier } = await makeTier(w.env);
    expect(stripe.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/products",
      "POST /v1/prices",
      "POST /v1/prices",
    ]);
    expect(tier.currency).toBe("usd");
    expect(tier.stripeMonthlyPriceId).toMatch(/^price_/);
    const listed = await body(await clientWith(w.env).members.tiers.$get());
    expect(listed.tiers.find((t: { _id: string }) => t._id === tier.id)).toMatchObject({
      name: "Supporter",
      benefits: ["Every post", "The archive"],
      monthly_price: 500,
    });

    const reader = await makeUser();
    expect((await sendWith(w.env, "POST", "/api/members/tiers", { name: "x" }, await asUser(reader))).status).toBe(403);

    const put = await sendWith(
      w.env,
      "PUT",
      `/api/members/tiers/${tier.id}`,
      { monthly_price: 700 },
      await asUser(admin),
    );
    expect(await body(put)).toEqual({ modifiedCount: 1 });
    const changed = (await db().query.memberTiers.findFirst({ where: eq(schema.memberTiers.id, tier.id) }))!;
    expect(changed.monthlyPrice).toBe(700);
    expect(changed.stripeMonthlyPriceId).not.toBe(tier.stripeMonthlyPriceId);
    expect(changed.stripeYearlyPriceId).toBe(tier.stripeYearlyPriceId);

    const del = await callWith(w.env, `/api/members/tiers/${tier.id}`, {
      method: "DELETE",
      headers: await asUser(admin),
    });
    expect(await body(del)).toEqual({ deletedCount: 1 });
    expect(stripe.store.products.get(tier.stripeProductId!)?.active).toBe(false);
    const after = await body(await clientWith(w.env).members.tiers.$get());
    expect(after.tiers.some((t: { _id: string }) => t._id === tier.id)).toBe(false);
    const join = await sendWith(
      w.env,
      "POST",
      "/api/members/checkout",
      { tier_id: tier.id, cadence: "month" },
      await asUser(reader),
    );
    expect(join.status).toBe(409);
  });

  it("checkout: 401 signed out, 403 unverified, then a subscription session for the account's one customer", async () => {
    const w = membersWorld();
    const { tier } = await makeTier(w.env);
    const input = { tier_id: tier.id, cadence: "year", post_id: "post123" };
    expect((await sendWith(w.env, "POST", "/api/members/checkout", input)).status).toBe(401);
    const unverified = await makeUser({ emailVerifiedAt: null });
    expect((await sendWith(w.env, "POST", "/api/members/checkout", input, await asUser(unverified))).status).toBe(403);

    const reader = await makeUser();
    stripe.requests.length = 0;
    for (let i = 0; i < 2; i++) {
      const res = await sendWith(w.env, "POST", "/api/members/checkout", input, await asUser(reader));
      expect(res.status).toBe(200);
      expect((await body(res)).url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    }
    const made = stripe.requests.filter((r) => r.path === "/v1/customers");
    expect(made).toHaveLength(1);
    expect(made[0]!.headers.get("Idempotency-Key")).toBe(`customer-${reader.id}`);
    const session = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!.form;
    expect(session.get("mode")).toBe("subscription");
    expect(session.get("client_reference_id")).toBe(reader.id);
    expect(session.get("line_items[0][price]")).toBe(tier.stripeYearlyPriceId);
    expect(session.get("metadata[post_id]")).toBe("post123");
    expect(session.get("subscription_data[metadata][user_id]")).toBe(reader.id);
    const member = await db().query.members.findFirst({ where: eq(schema.members.userId, reader.id) });
    expect(member?.stripeCustomerId).toMatch(/^cus_/);
    expect(member?.status).toBe("free");
  });

  it("the webhook refuses a missing, wrong or stale signature", async () => {
    const w = membersWorld();
    const post = (headers: Record<string, string>, payload = "{}") =>
      callWith(w.env, "/api/stripe/webhook", { method: "POST", headers, body: payload });
    expect((await post({})).status).toBe(400);
    expect((await post({ "Stripe-Signature": "t=1,v1=00" })).status).toBe(400);
    const forged = await signedEvent("invoice.paid", { id: "in_1" }, { secret: "whsec_someoneElse" });
    expect((await post({ "Stripe-Signature": forged.header }, forged.payload)).status).toBe(400);
    const stale = await signedEvent("invoice.paid", { id: "in_1" }, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const res = await post({ "Stripe-Signature": stale.header }, stale.payload);
    expect(res.status).toBe(400);
    expect((await body(res)).error.code).toBe("bad-signature");
    expect(w.queue.pending).toEqual([]);
  });

  it("a paid subscription makes a member once, however often Stripe sends it; cancel, resume and the end follow Stripe", async () => {
    const w = membersWorld();
    const { tier, admin } = await makeTier(w.env);
    const reader = await makeUser();
    await sendWith(
      w.env,
      "POST",
      "/api/members/checkout",
      { tier_id: tier.id, cadence: "month" },
      await asUser(reader),
    );
    const customer = (await db().query.members.findFirst({ where: eq(schema.members.userId, reader.id) }))!
      .stripeCustomerId!;
    const sub = stripe.subscription({
      customer,
      status: "active",
      price: tier.stripeMonthlyPriceId!,
      metadata: { user_id: reader.id, tier_id: tier.id },
    });
    const post = await makeBlog(admin, { title: "The post that sold it" });
    const completed = {
      id: "cs_1",
      object: "checkout.session",
      client_reference_id: reader.id,
      customer,
      subscription: sub.id,
      metadata: { user_id: reader.id, tier_id: tier.id, post_id: post.id },
    };
    const eventId = `evt_${reader.id}`;
    for (let i = 0; i < 2; i++) {
      const res = await deliverEvent(w.env, "checkout.session.completed", completed, { id: eventId });
      expect(await body(res)).toEqual({ received: true, queued: true });
    }
    // The created event, out of order and with a stale copy: the job reads the subscription again.
    await deliverEvent(w.env, "customer.subscription.created", { ...sub, status: "incomplete" });
    await w.queue.drain(w.env, { twice: true });
    // A repeat of a handled event is dropped.
    expect(await body(await deliverEvent(w.env, "checkout.session.completed", completed, { id: eventId }))).toEqual({
      received: true,
      queued: false,
    });
    expect(w.queue.pending).toEqual([]);

    const me = await body(await clientWith(w.env, await asUser(reader)).members.me.$get());
    expect(me).toMatchObject({ status: "paid", cadence: "month", cancel_at_period_end: false, tier: { _id: tier.id } });
    expect(me.current_period_end).toMatch(/^\d{4}-/);
    expect(w.box.to(reader.email).map((m) => m.subject)).toEqual(["Welcome to Supporter on Edge Blog"]);

    const again = await sendWith(
      w.env,
      "POST",
      "/api/members/checkout",
      { tier_id: tier.id, cadence: "year" },
      await asUser(reader),
    );
    expect(again.status).toBe(409);
    expect((await body(again)).error.code).toBe("already-member");

    const cancelled = await clientWith(w.env, await asUser(reader)).members.me.cancel.$post();
    expect(await body(cancelled)).toMatchObject({ status: "paid", cancel_at_period_end: true });
    expect(w.box.to(reader.email).map((m) => m.subject)).toContain("Your Edge Blog membership was cancelled");
    const resumed = await clientWith(w.env, await asUser(reader)).members.me.resume.$post();
    expect(await body(resumed)).toMatchObject({ status: "paid", cancel_at_period_end: false });

    const portal = await clientWith(w.env, await asUser(reader)).members.portal.$post();
    expect((await body(portal)).url).toBe("https://billing.stripe.com/p/session/test");

    const stats = await body(await clientWith(w.env, await asUser(admin)).members.stats.$get());
    expect(stats.counts.paid).toBeGreaterThanOrEqual(1);
    expect(stats.mrr.usd).toBeGreaterThanOrEqual(500);
    // From the event ledger: this month's paid sign-up (the event once, however often it came), and its post.
    expect(stats.months).toHaveLength(12);
    expect(stats.months.at(-1)).toMatchObject({ month: new Date().toISOString().slice(0, 7) });
    expect(stats.months.at(-1).joined).toBeGreaterThanOrEqual(1);
    expect(stats.posts).toContainEqual({ post_id: post.id, title: "The post that sold it", signups: 1 });

    // Payment fails: the member keeps access while Stripe retries (past_due) and gets the portal link.
    stripe.store.subscriptions.get(sub.id as string)!.status = "past_due";
    await deliverEvent(w.env, "invoice.payment_failed", {
      id: "in_2",
      customer,
      parent: { subscription_details: { subscription: sub.id } },
    });
    await w.queue.drain(w.env, { twice: true });
    expect((await body(await clientWith(w.env, await asUser(reader)).members.me.$get())).status).toBe("paid");
    expect(w.box.to(reader.email).at(-1)?.subject).toBe("Your Edge Blog payment did not go through");
    const failures = w.box.to(reader.email).filter((m) => m.subject === "Your Edge Blog payment did not go through");
    expect(failures).toHaveLength(1);
    expect(failures[0]!.text).toContain("/settings#membership");

    // The subscription ends.
    stripe.store.subscriptions.get(sub.id as string)!.status = "canceled";
    await deliverEvent(w.env, "customer.subscription.deleted", { id: sub.id, object: "subscription" });
    await w.queue.drain(w.env);
    expect(await body(await clientWith(w.env, await asUser(reader)).members.me.$get())).toMatchObject({
      status: "free",
      tier: null,
    });

    // Other events are acknowledged and ignored.
    const other = await deliverEvent(w.env, "customer.created", { id: "cus_x" });
    expect(await body(other)).toEqual({ received: true, queued: false });
  });

  it("admins comp an account for a while, list members by status, and end the comp", async () => {
    const w = membersWorld();
    const { tier, admin } = await makeTier(w.env);
    const reader = await makeUser();
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const comp = await sendWith(
      w.env,
      "POST",
      `/api/members/${reader.id}/comp`,
      { tier_id: tier.id, until },
      await asUser(admin),
    );
    expect(await body(comp)).toEqual({ modifiedCount: 1 });
    expect(await body(await clientWith(w.env, await asUser(reader)).members.me.$get())).toMatchObject({
      status: "comped",
      tier: { _id: tier.id },
      comp_until: until,
    });
    const list = await body(
      await callWith(w.env, `/api/members?status=comped&q=${encodeURIComponent(reader.email)}`, {
        headers: await asUser(admin),
      }),
    );
    expect(list).toMatchObject({ total: 1, page: 1, items: [{ user_id: reader.id, status: "comped" }] });
    expect((await clientWith(w.env, await asUser(admin)).members.$get({ query: { page: "0" } })).status).toBe(400);
    expect((await clientWith(w.env, await asUser(reader)).members.$get({ query: {} })).status).toBe(403);
    const end = await callWith(w.env, `/api/members/${reader.id}/comp`, {
      method: "DELETE",
      headers: await asUser(admin),
    });
    expect(await body(end)).toEqual({ deletedCount: 1 });
    expect((await body(await clientWith(w.env, await asUser(reader)).members.me.$get())).status).toBe("free");

    // A comp whose end has passed reads as free at once, and the hourly sweep rewrites the stored status.
    const past = await makeUser();
    await db()
      .insert(schema.members)
      .values({ userId: past.id, status: "comped", compTierId: tier.id, compUntil: Date.now() - 1000 });
    expect((await body(await clientWith(w.env, await asUser(past)).members.me.$get())).status).toBe("free");
    const { createServices } = await import("#worker/services/index.ts");
    expect(await createServices(w.env).members.admin.sweepComps()).toBeGreaterThanOrEqual(1);
    const row = await db().query.members.findFirst({ where: eq(schema.members.userId, past.id) });
    expect(row?.status).toBe("free");
  });

  it("a comp and its end keep the stored status true to the row as written: paid while Stripe says so", async () => {
    const w = membersWorld();
    const { tier, admin } = await makeTier(w.env);
    const stored = async (id: string) =>
      (await db().query.members.findFirst({ where: eq(schema.members.userId, id) }))?.status;
    const paying = await makeUser();
    await db().insert(schema.members).values({ userId: paying.id, status: "paid", subscriptionStatus: "active" });
    const lapsed = await makeUser();
    await db().insert(schema.members).values({ userId: lapsed.id, status: "free", subscriptionStatus: "canceled" });
    for (const who of [paying, lapsed]) {
      const comp = await sendWith(
        w.env,
        "POST",
        `/api/members/${who.id}/comp`,
        { tier_id: tier.id },
        await asUser(admin),
      );
      expect(comp.status).toBe(200);
    }
    expect([await stored(paying.id), await stored(lapsed.id)]).toEqual(["paid", "comped"]);
    for (const who of [paying, lapsed]) {
      const end = await callWith(w.env, `/api/members/${who.id}/comp`, {
        method: "DELETE",
        headers: await asUser(admin),
      });
      expect(end.status).toBe(200);
    }
    expect([await stored(paying.id), await stored(lapsed.id)]).toEqual(["paid", "free"]);
  });

  it("lists its routes in the OpenAPI document", async () => {
    const doc = await body(await callWith(mailbox().env(), "/api/openapi.json"));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/stripe/webhook",
        "/members/tiers",
        "/members/tiers/{id}",
        "/members/checkout",
        "/members/me",
        "/members/{userId}/comp",
        "/members/stats",
      ]),
    );
    expect(doc.paths["/members/checkout"].post.requestBody).toBeDefined();
  });
});
