import type { Browser, Page } from "@playwright/test";
import { expect, ownAddress, test } from "./fixtures";
import { mailsMentioning } from "./mail";
import { ACCOUNTS, VIEWPORTS, hydrated, localD1, screenshots, signIn, uploadCover } from "./support";

/**
 * Who a post's newsletter goes to (issue 46): the admin chooses, for the site on the Newsletter page and for a post
 * in its editor. Through `wrangler dev`: the forms, the queue's fan-out and the mail wrangler writes.
 */
const run = Date.now().toString(36);
const PASSWORD = "Sunny-Garden-42";

/** A browser context of its own, signed in as `who`. */
async function as(browser: Browser, baseURL: string, who: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: ownAddress() });
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

/** A new account with a confirmed address, signed up from a context of its own; answers its id. */
async function reader(browser: Browser, baseURL: string, email: string): Promise<string> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: ownAddress() });
  const res = await context.request.post("/api/auth/register", {
    data: { name: "Rae Reader", email, password: PASSWORD },
  });
  expect(res.status()).toBe(201);
  const { user } = (await res.json()) as { user: { _id: string } };
  await context.close();
  localD1(`UPDATE users SET email_verified_at = ${Date.now()} WHERE email = '${email}'`);
  return user._id;
}

type Send = { blog_id: string; completed: boolean; queued: number; sent: number; audience: string };

/** Waits until the post's send has walked the list and mailed everyone it queued. */
async function sendDone(admin: Page, blogId: string): Promise<Send> {
  let send: Send | undefined;
  await expect
    .poll(
      async () => {
        const { sends } = (await (await admin.request.get("/api/newsletter/sends")).json()) as { sends: Send[] };
        send = sends.find((s) => s.blog_id === blogId);
        return Boolean(send?.completed && send.queued === 0);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return send!;
}

test("an admin sends a post to paying members only: a comped member gets it, a free subscriber does not", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await as(browser, baseURL!, ACCOUNTS.admin);
  await admin.setViewportSize(VIEWPORTS.desktop);

  // Two readers with confirmed accounts, both newsletter subscribers; one is given a tier (comped).
  const paying = `paying-${run}@example.com`;
  const free = `free-${run}@example.com`;
  const payingId = await reader(browser, baseURL!, paying);
  await reader(browser, baseURL!, free);
  const tier = await admin.request.post("/api/members/tiers", {
    data: { name: `Friends ${run}`, monthly_price: 500, yearly_price: 5000, currency: "usd" },
  });
  expect(tier.status()).toBe(201);
  const { insertedId: tierId } = (await tier.json()) as { insertedId: string };
  expect((await admin.request.post(`/api/members/${payingId}/comp`, { data: { tier_id: tierId } })).status()).toBe(200);
  const imported = await admin.request.post("/api/newsletter/subscribers.csv", {
    headers: { "Content-Type": "text/csv" },
    data: `email\n${paying}\n${free}\n`,
  });
  expect(imported.status()).toBe(200);

  // A writer's draft, mailed when published (the writer's form has no say in who gets it).
  const writer = await as(browser, baseURL!, ACCOUNTS.writer);
  await writer.goto("/dashboard/writeBlogs");
  await expect(writer.getByLabel("Send the newsletter to")).toHaveCount(0);
  const title = `For our members ${run}`;
  const created = await writer.request.post("/api/blogs", {
    data: {
      title,
      short_description: "A note for the people who keep this going.",
      blog_details: "Thank you. Here is what we did with your support this month.",
      category: "Technology",
      date_time: new Date().toISOString(),
      image: await uploadCover(writer),
      status: "draft",
    },
  });
  expect(created.status()).toBe(201);
  const { insertedId: postId } = (await created.json()) as { insertedId: string };

  // The admin opens it, chooses paying members, and publishes it.
  const since = Date.now();
  await admin.goto(`/dashboard/updateAllBlogs/${postId}`);
  await hydrated(admin);
  const audience = admin.getByLabel("Send the newsletter to");
  await expect(audience).toHaveValue("");
  await audience.selectOption({ label: "Paying members only" });
  await screenshots(admin, "newsletter-audience-editor");
  await admin.getByRole("button", { name: "Publish now" }).click();
  await expect(admin.getByText("Blog Posted Successfully!").first()).toBeVisible();
  await expect(admin.getByText("Changed: who gets the newsletter.").first()).toBeVisible();

  const send = await sendDone(admin, postId);
  expect(send.audience).toBe("paid");
  await expect.poll(() => mailsMentioning([title, paying], since).length, { timeout: 10_000 }).toBe(1);
  expect(mailsMentioning([title, free], since)).toEqual([]);
  // The record says whose it was: the admin's choice is kept on the post.
  const record = (await (await admin.request.get(`/api/blogs/${postId}`)).json()) as { newsletter_audience: string };
  expect(record.newsletter_audience).toBe("paid");

  // The Newsletter page shows the send's audience.
  await admin.goto("/dashboard/newsletter");
  const row = admin.getByRole("row").filter({ hasText: title });
  await expect(row.getByRole("cell", { name: "Paying members", exact: true })).toBeVisible();
  await admin.context().close();
  await writer.context().close();
});

test("the Newsletter page sets who gets new posts by default, says what changed, and keeps it", async ({
  browser,
  baseURL,
}) => {
  const admin = await as(browser, baseURL!, ACCOUNTS.admin);
  for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
    await admin.setViewportSize(viewport);
    await admin.goto("/dashboard/newsletter");
    const group = admin.getByRole("group", { name: "Who gets new posts" });
    await expect(group.getByLabel("Every subscriber")).toBeChecked();
    const overflow = await admin.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  }
  await screenshots(admin, "newsletter-audience-default");
  const group = admin.getByRole("group", { name: "Who gets new posts" });
  await group.getByLabel("Free subscribers only").check();
  await admin.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.getByText(/^New posts now send .+ to free subscribers only by default\.$/)).toBeVisible();
  await admin.reload();
  await expect(
    admin.getByRole("group", { name: "Who gets new posts" }).getByLabel("Free subscribers only"),
  ).toBeChecked();
  // Back to everyone, as the other specs on this server expect (specs on one server run one after another).
  await admin.getByRole("group", { name: "Who gets new posts" }).getByLabel("Every subscriber").check();
  await admin.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.getByText(/^New posts now send .+ to every subscriber by default\.$/)).toBeVisible();
  await admin.context().close();
});
