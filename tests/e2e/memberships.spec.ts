import type { Browser, Page } from "@playwright/test";
import Stripe from "stripe";
import { expect, ownAddress, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, hydrated, localD1, screenshotsInBothThemes, signIn, uploadCover } from "./support";

/**
 * Paid memberships end to end (issue 46): the Worker talks to this server's stand-in for Stripe
 * (scripts/lib/stripe-stand-in.mjs, started by scripts/e2e.mjs and named by STRIPE_API_BASE), whose checkout
 * page "pays" and posts the signed events Stripe would. Access comes only from those events, through the
 * edge-blog-members queue.
 */
const STRIPE = process.env.E2E_STRIPE_URL ?? "";
const run = Date.now().toString(36);
const MARKER = "<!--members-only-->";
const FREE_PART = `Everyone reads this opening paragraph ${run}.`;
const GATED = `Only paying members read this sentence ${run}.`;
const PASSWORD = "Sunny-Garden-42";

/** A browser context of its own, signed in as `who` (the page stays who it was). */
async function as(browser: Browser, baseURL: string, who: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: ownAddress() });
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

type Me = { status: string; cancel_at_period_end: boolean; current_period_end: string | null };
const me = async (page: Page) => (await (await page.request.get("/api/members/me")).json()) as Me;

/** What the queue leaves: polls the reader's plan until `done` holds (the consumer runs every second or so). */
async function planBecomes(page: Page, done: (plan: Me) => boolean) {
  await expect.poll(async () => done(await me(page)), { timeout: 20_000 }).toBe(true);
}

async function standIn(path: string, init: RequestInit = {}) {
  const res = await fetch(`${STRIPE}${path}`, init);
  expect(res.status, `stand-in ${path}`).toBe(200);
  return res.json();
}

/** A Stripe event, its signature made by the SDK's own helper with a secret of the caller's choice. */
function signed(type: string, object: Record<string, unknown>, secret: string) {
  const payload = JSON.stringify({
    id: `evt_forged${run}${Math.random().toString(36).slice(2)}`,
    object: "event",
    type,
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  return { payload, header: new Stripe("sk_test_forger").webhooks.generateTestHeaderString({ payload, secret }) };
}

test.describe("paid memberships through the local Stripe stand-in", () => {
  test.skip(!STRIPE, "run through scripts/e2e.mjs, which starts the Stripe stand-in");

  test("a reader joins a paid tier, reads the paid post whole, cancels, keeps it until the end, then sees the preview", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(VIEWPORTS.desktop);

    // The admin makes a tier on the dashboard (a Stripe Product and two Prices at the stand-in).
    const admin = await as(browser, baseURL!, ACCOUNTS.admin);
    await admin.setViewportSize(VIEWPORTS.desktop);
    await admin.goto("/dashboard/memberships");
    await expect(admin.locator("[data-stripe-off]")).toHaveCount(0);
    const tierName = `Patron ${run}`;
    const form = admin.locator("form", { has: admin.getByRole("heading", { name: "New tier" }) });
    await form.getByLabel("Name").fill(tierName);
    await form.getByLabel("Monthly price (cents)").fill("500");
    await form.getByLabel("Yearly price (cents)").fill("5000");
    await form.getByLabel("Description").fill("Every paid post, and the archive.");
    await form.getByLabel("Benefits (one a line)").fill("Every paid post\nThe whole archive");
    await form.getByRole("button", { name: "Create tier" }).click();
    await expect(admin.getByRole("heading", { name: "Tier created" })).toBeVisible();
    const tiers = (await (await page.request.get("/api/members/tiers")).json()) as {
      tiers: { _id: string; name: string }[];
    };
    const tier = tiers.tiers.find((t) => t.name === tierName)!;
    expect(tier).toBeTruthy();

    // The writer publishes a paid post: a free opening, the marker line, the paid part.
    const writer = await as(browser, baseURL!, ACCOUNTS.writer);
    const created = await writer.request.post("/api/blogs", {
      data: {
        title: `A paid post ${run}`,
        short_description: "What members get, in one line.",
        blog_details: `${FREE_PART}\n\n${MARKER}\n\n${GATED}`,
        category: "Technology",
        date_time: new Date().toISOString(),
        image: await uploadCover(writer),
        visibility: "paid",
        no_email: true,
      },
    });
    expect(created.status()).toBe(201);
    const postId = ((await created.json()) as { insertedId: string }).insertedId;

    // A visitor gets the preview and the call to action; the paid sentence is nowhere in the HTML.
    const anonymous = await page.request.get(`/blogs/${postId}`);
    const html = await anonymous.text();
    expect(html).toContain(FREE_PART);
    expect(html).not.toContain(GATED);
    expect(html).not.toContain(MARKER);
    expect(html).toContain('"isAccessibleForFree":false');
    const api = (await (await page.request.get(`/api/blogs/${postId}`)).json()) as Record<string, unknown>;
    expect(api).toMatchObject({ access: false, visibility: "paid" });
    expect(JSON.stringify(api)).not.toContain(GATED);

    // A reader with a confirmed address.
    const email = `member-${run}@example.com`;
    const registered = await page.request.post("/api/auth/register", {
      data: { name: "Mina Member", email, password: PASSWORD },
    });
    expect(registered.status()).toBe(201);
    localD1(`UPDATE users SET email_verified_at = ${Date.now()} WHERE email = '${email}'`);

    await page.goto(`/blogs/${postId}`);
    await expect(page).toHaveURL(new RegExp(`/blogs/${postId}/[^/?#]+`));
    const cta = page.locator("[data-members-cta]");
    await expect(cta).toContainText("The rest of this post is for paying members");
    await expect(page.getByText(GATED)).toHaveCount(0);
    await screenshotsInBothThemes(page, "memberships-paywall");

    // This month's USD MRR before the reader joins (the history's last month, as the admin's API answers it).
    const thisMonthUsd = async () => {
      const stats = (await (await admin.request.get("/api/members/stats")).json()) as {
        mrr_months: { month: string; currencies: Record<string, number> }[];
      };
      return stats.mrr_months.at(-1)?.currencies.usd ?? 0;
    };
    const mrrBefore = await thisMonthUsd();

    // Join: the plans, the stand-in's checkout page, "Pay", back on the site.
    await cta.getByRole("link", { name: "See the plans" }).click();
    await expect(page).toHaveURL(new RegExp(`/membership\\?from=${postId}$`));
    await hydrated(page);
    await screenshotsInBothThemes(page, "memberships-plans");
    await page
      .locator(`[data-tier="${tier._id}"]`)
      .getByRole("button", { name: /\$5\.00 a month/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`^${STRIPE}/checkout/`));
    await page.getByRole("button", { name: "Pay" }).click();
    await expect(page).toHaveURL(/\/membership\?joined=1$/);
    await expect(page.getByText("Your membership starts as soon as the payment is confirmed")).toBeVisible();

    // Access comes from Stripe's events, through the queue.
    await planBecomes(page, (plan) => plan.status === "paid");
    await page.goto(`/blogs/${postId}`);
    await expect(page.getByText(GATED)).toBeVisible();
    await expect(page.locator("[data-members-cta]")).toHaveCount(0);
    const whole = (await (await page.request.get(`/api/blogs/${postId}`)).json()) as Record<string, unknown>;
    expect(whole).toMatchObject({ access: true });
    expect(String(whole.blog_details)).toContain(GATED);
    // The shared, cached copy never holds the paid answer.
    expect((await page.request.get(`/blogs/${postId}`)).headers()["cache-control"]).toMatch(/private|no-store/);
    expect(await (await fetch(`${baseURL}/blogs/${postId}`)).text()).not.toContain(GATED);
    const paid = await me(page);

    // The admin's MRR table: this month's USD row has grown by the member's $5.00, beside its SVG chart, with no
    // sideways scroll at 375 px or 1280 px, in light and dark.
    await admin.goto("/dashboard/memberships");
    const thisMonth = new Date().toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
    const usdRow = admin
      .locator("[data-mrr-table] tbody tr")
      .filter({ has: admin.getByRole("rowheader", { name: thisMonth }) })
      .filter({ hasText: "USD" });
    const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
      (mrrBefore + 500) / 100,
    );
    await expect(usdRow.getByRole("cell").last()).toHaveText(dollars);
    await expect(admin.getByRole("img", { name: "Monthly recurring revenue in USD per month" })).toBeVisible();
    for (const size of Object.values(VIEWPORTS)) {
      await admin.setViewportSize(size);
      expect(await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
    }
    await screenshotsInBothThemes(admin, "memberships-mrr");

    // Attackers: a forged, an unsigned and a stale event are refused and change nothing.
    const subscriptions = (await standIn("/__stand-in/subscriptions")) as {
      data: { id: string; metadata: { tier_id?: string }; customer: string }[];
    };
    const sub = subscriptions.data.find((s) => s.metadata.tier_id === tier._id)!;
    expect(sub).toBeTruthy();
    const forged = signed(
      "customer.subscription.deleted",
      { ...sub, status: "canceled" },
      "whsec_notTheEndpointsSecret01",
    );
    for (const headers of [{ "Stripe-Signature": forged.header }, {}] as Record<string, string>[]) {
      const refused = await page.request.post("/api/stripe/webhook", {
        headers: { "Content-Type": "application/json", ...headers },
        data: forged.payload,
      });
      expect(refused.status()).toBe(400);
    }
    expect(
      ((await standIn("/__stand-in/events/last/resend?age=600", { method: "POST" })) as { status: number }).status,
    ).toBe(400);
    // The same event again (Stripe retries): answered, and nothing changes.
    const again = (await standIn("/__stand-in/events/last/resend", { method: "POST" })) as { status: number };
    expect(again.status).toBe(200);
    await page.waitForTimeout(2_000);
    expect(await me(page)).toEqual(paid);

    // Cancel in Settings: access lasts until the period's end.
    await page.goto("/settings#membership");
    const section = page.locator("#membership");
    await expect(section).toContainText(`${tierName}, $5.00 a month.`);
    await expect(section).toContainText("Renews on");
    await section.getByRole("button", { name: "Cancel membership" }).click();
    await expect(section).toContainText("Cancelled: access ends on");
    await expect(section.getByRole("button", { name: "Resume membership" })).toBeVisible();
    await planBecomes(page, (plan) => plan.status === "paid" && plan.cancel_at_period_end);
    await page.goto(`/blogs/${postId}`);
    await expect(page.getByText(GATED)).toBeVisible();

    // The period ends: Stripe deletes the subscription, and the reader is back to the preview.
    expect(
      ((await standIn(`/__stand-in/subscriptions/${sub.id}/end`, { method: "POST" })) as { status: number }).status,
    ).toBe(200);
    await planBecomes(page, (plan) => plan.status === "free");
    await page.goto(`/blogs/${postId}`);
    await expect(page.locator("[data-members-cta]")).toBeVisible();
    await expect(page.getByText(GATED)).toHaveCount(0);

    // The admin gives the reader a complimentary membership by address, finds it in the list, and ends it.
    await admin.goto("/dashboard/memberships");
    await expect(admin.getByRole("heading", { level: 1, name: "Memberships" })).toBeVisible();
    const give = admin.getByRole("form", { name: "Give a membership" });
    await give.getByLabel("Account email").fill(email);
    await give.getByLabel("Tier").selectOption({ label: tierName });
    await give.getByRole("button", { name: "Give membership" }).click();
    await expect(admin.getByRole("heading", { name: "Membership given" })).toBeVisible();
    await planBecomes(page, (plan) => plan.status === "comped");
    await page.goto(`/blogs/${postId}`);
    await expect(page.getByText(GATED)).toBeVisible();
    await admin.goto(`/dashboard/memberships?status=comped&q=${encodeURIComponent(email)}`);
    const row = admin.getByRole("row", { name: new RegExp(email) });
    await expect(row).toContainText("Comped");
    await expect(row).toContainText(tierName);
    await admin.goto(`/dashboard/memberships?q=${encodeURIComponent(email)}`);
    // The reader joined from the post's call to action: the Checkout's metadata names it.
    await expect(admin.locator("[data-signups-per-post]")).toContainText(`A paid post ${run}`);
    await screenshotsInBothThemes(admin, "memberships-dashboard");
    await admin
      .getByRole("row", { name: new RegExp(email) })
      .getByRole("button", { name: /End comp/ })
      .click();
    await expect(admin.getByRole("heading", { name: "Comp ended" })).toBeVisible();
    await planBecomes(page, (plan) => plan.status === "free");
    await admin.context().close();
    await writer.context().close();
  });

  test("the editor's button puts the members-only line where the preview should end", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard/writeBlogs");
    await hydrated(page);
    const details = page.getByLabel("Details");
    await details.fill("The free opening.\nStill free.");
    // The cursor in the first line: the marker goes on a line of its own after it.
    await details.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(4, 4));
    await page.getByRole("button", { name: "Members only from here" }).click();
    await expect(details).toHaveValue(`The free opening.\n${MARKER}\nStill free.`);
    // Again at the end: there is only ever one marker, now at the end.
    await details.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.length, el.value.length));
    await page.getByRole("button", { name: "Members only from here" }).click();
    await expect(details).toHaveValue(`The free opening.\nStill free.\n${MARKER}\n`);
    // The preview beside it never shows the marker line.
    await expect(page.getByTestId("markdown-preview")).not.toContainText("members-only");
  });
});
