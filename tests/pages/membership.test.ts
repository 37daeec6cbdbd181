import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { db, makeUser } from "../support/factories";
import { callWith, mailbox } from "../support/mail";
import { cookieFor } from "../support/pages";
import { fakeStripe, STRIPE_ENV } from "../support/stripe";

let stripe: ReturnType<typeof fakeStripe>;
beforeEach(() => {
  stripe = fakeStripe();
});
afterEach(() => stripe.restore());

const on = () => mailbox().env(STRIPE_ENV);
const noSecrets = (html: string) => {
  expect(html).not.toContain(STRIPE_ENV.STRIPE_SECRET_KEY);
  expect(html).not.toContain(STRIPE_ENV.STRIPE_WEBHOOK_SECRET);
};

async function form(
  env: Cloudflare.Env,
  path: string,
  who: { id: string; email: string },
  fields: Record<string, string>,
) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return callWith(env, path, { method: "POST", body, headers: { Accept: "text/html", ...(await cookieFor(who)) } });
}

describe("membership pages", () => {
  it("the admin makes a tier on /dashboard/memberships; a reader joins from /membership into Stripe Checkout", async () => {
    const env = on();
    const admin = await makeUser({ role: "admin" });
    const made = await form(env, "/dashboard/memberships", admin, {
      intent: "create",
      name: "Patron",
      currency: "eur",
      monthly_price: "900",
      yearly_price: "9000",
      benefits: "Every post",
    });
    expect(made.status).toBe(302);
    const dashboard = await callWith(env, "/dashboard/memberships", { headers: await cookieFor(admin) });
    const html = await dashboard.text();
    expect(html).toContain('value="Patron"');
    expect(html).not.toContain("data-stripe-off");
    noSecrets(html);

    const page = await (await callWith(env, "/membership")).text();
    expect(page).toContain("Patron");
    expect(page).toContain("€9.00");
    noSecrets(page);

    const tier = (await db().query.memberTiers.findMany()).find((t) => t.name === "Patron")!;
    const reader = await makeUser();
    const join = await form(env, "/membership", reader, { tier_id: tier.id, cadence: "month", from: "post1" });
    expect(join.status).toBe(302);
    expect(join.headers.get("Location")).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  });

  it("without Stripe the dashboard says how to turn memberships on, and /membership has no plans", async () => {
    const env = mailbox().env();
    const admin = await makeUser({ role: "admin" });
    const html = await (await callWith(env, "/dashboard/memberships", { headers: await cookieFor(admin) })).text();
    expect(html).toContain("data-stripe-off");
    expect(html).toContain("wrangler secret put STRIPE_SECRET_KEY");
    expect(await (await callWith(env, "/membership")).text()).toContain("There are no paid plans yet.");
  });

  it("Settings → Membership shows a paid member's plan and renewal, and cancels at the period's end", async () => {
    const env = on();
    const admin = await makeUser({ role: "admin" });
    await form(env, "/dashboard/memberships", admin, {
      intent: "create",
      name: "Reader",
      currency: "usd",
      monthly_price: "500",
      yearly_price: "5000",
    });
    const tier = (await db().query.memberTiers.findMany()).find((t) => t.name === "Reader")!;
    const member = await makeUser();
    const sub = stripe.subscription({
      customer: "cus_page",
      status: "active",
      price: tier.stripeMonthlyPriceId!,
      periodEnd: Date.parse("2027-01-15T00:00:00Z") / 1000,
    });
    await db()
      .insert(schema.members)
      .values({
        userId: member.id,
        stripeCustomerId: `cus_${member.id}`,
        stripeSubscriptionId: sub.id as string,
        subscriptionStatus: "active",
        status: "paid",
        tierId: tier.id,
        cadence: "month",
        currentPeriodEnd: Date.parse("2027-01-15T00:00:00Z"),
      });
    sub.customer = `cus_${member.id}`;
    const settings = await (await callWith(env, "/settings", { headers: await cookieFor(member) })).text();
    expect(settings).toContain('data-plan="paid"');
    expect(settings).toContain("Renews on January 15, 2027.");
    noSecrets(settings);
    const cancelled = await form(env, "/settings", member, { intent: "membership-cancel" });
    expect(cancelled.status).toBe(302);
    const after = await (await callWith(env, "/settings", { headers: await cookieFor(member) })).text();
    expect(after).toContain("Cancelled: access ends on January 15, 2027.");
    const portal = await form(env, "/settings", member, { intent: "membership-portal" });
    expect(portal.headers.get("Location")).toBe("https://billing.stripe.com/p/session/test");
  });
});
