import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { db, makeUser } from "../support/factories";
import { callWith } from "../support/mail";
import { membersWorld } from "../support/kernel";
import { cookieFor } from "../support/pages";
import { deliverEvent, fakeStripe } from "../support/stripe";

let stripe: ReturnType<typeof fakeStripe>;
beforeEach(() => {
  stripe = fakeStripe();
});
afterEach(() => stripe.restore());

describe("Dashboard → Memberships: MRR over time", () => {
  it("draws this month's MRR per currency as an SVG image and lists it in the table beside it", async () => {
    const w = membersWorld();
    const env = w.env;
    const admin = await makeUser({ role: "admin" });
    const body = new FormData();
    for (const [k, v] of Object.entries({
      intent: "create",
      name: "Venner",
      currency: "nok",
      monthly_price: "4250",
      yearly_price: "42000",
    }))
      body.append(k, v);
    const made = await callWith(env, "/dashboard/memberships", {
      method: "POST",
      body,
      headers: { Accept: "text/html", ...(await cookieFor(admin)) },
    });
    expect(made.status).toBe(302);
    const tier = (await db().query.memberTiers.findMany()).find((t) => t.name === "Venner")!;

    const reader = await makeUser();
    await db()
      .insert(schema.members)
      .values({ userId: reader.id, stripeCustomerId: `cus_${reader.id}` });
    const sub = stripe.subscription({
      customer: `cus_${reader.id}`,
      status: "active",
      price: tier.stripeMonthlyPriceId!,
      metadata: { user_id: reader.id, tier_id: tier.id },
    });
    const hook = await deliverEvent(env, "customer.subscription.created", sub);
    expect(hook.status).toBe(200);
    await w.queue.drain(env);

    const html = await (await callWith(env, "/dashboard/memberships", { headers: await cookieFor(admin) })).text();
    const section = html.slice(
      html.indexOf('<h2 id="mrr-heading"'),
      html.indexOf("</section>", html.indexOf("mrr-heading")),
    );
    expect(section).toContain("Monthly recurring revenue</h2>");
    const svg = section.match(/<svg[^>]*aria-labelledby="mrr-nok-title mrr-nok-desc"[^>]*>.*?<\/svg>/s)?.[0] ?? "";
    expect(svg).toContain('role="img"');
    expect(svg).toContain('<title id="mrr-nok-title">Monthly recurring revenue in NOK per month</title>');
    const month = new Date().toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
    const amount = new Intl.NumberFormat("en-US", { style: "currency", currency: "NOK" }).format(42.5);
    const table = section.slice(section.indexOf("data-mrr-table"));
    expect(table).toContain("<caption");
    const row = new RegExp(`<th scope="row"[^>]*>${month}</th><td>NOK</td><td[^>]*>${amount}</td>`);
    expect(table).toMatch(row);
  });
});
