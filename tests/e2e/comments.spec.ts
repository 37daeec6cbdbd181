import type { Browser, Page } from "@playwright/test";
import { MSG } from "#app/lib/messages.ts";
import { expect, ownAddress, test } from "./fixtures";
import path from "node:path";
import { ACCOUNTS, SCREENSHOT_DIR, VIEWPORTS, screenshots, signIn } from "./support";

// A seeded post of the demo writer (Jordan Reyes), at its readable link.
const POST_PATH = "/blogs/dtsmsv96ei1r4bjkcypt/cut-your-web-apps-load-time-in-half-a-practical-checklist";
const PASSWORD = "Comment#Journey2026";

/** The comments section alone at phone and desktop widths (the post above it is the reading spec's). */
async function sectionShots(page: Page, name: string) {
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForLoadState("networkidle");
    await page.locator("#comments").screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

const swal = (page: Page) => page.locator(".swal2-popup");
let people = 0;
const stamp = () => `${Date.now().toString(36)}${(people++).toString(36)}`;

/** Another person in their own browser (their own client address, as Cloudflare would send). */
async function person(browser: Browser, opts: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    extraHTTPHeaders: ownAddress(),
  });
  return { context, page: await context.newPage() };
}

/** A fresh account, signed in through the real register call (the cookie lands in the page's context). */
async function register(page: Page, name: string) {
  const email = `comments-${stamp()}@example.com`;
  const res = await page.request.post("/api/auth/register", { data: { name, email, password: PASSWORD } });
  expect(res.status()).toBe(201);
}

async function comment(page: Page, text: string) {
  await page.goto(POST_PATH);
  await page.getByRole("button", { name: /^Comment/ }).click();
  await page.getByLabel("Your comment").fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("list", { name: "Comments, newest first" }).getByText(text)).toBeVisible();
}

test.describe("comments a community can run", () => {
  test("reply to a comment, and the post's writer deletes it", async ({ page, browser }) => {
    // Four people in four browsers: more than the default 30 s on 2 cores.
    test.setTimeout(120_000);
    const id = stamp();
    // Ava comments on Jordan's post.
    await register(page, "Ava Commenter");
    const top = `Does measuring first apply to tiny sites too? ${id}`;
    await comment(page, top);

    // Ben answers her, with JavaScript: Reply opens the form under her comment.
    const ben = await person(browser);
    await register(ben.page, "Ben Replier");
    await ben.page.goto(POST_PATH);
    const avaItem = ben.page.locator("li", { hasText: top }).first();
    await avaItem.locator("summary").first().click();
    const reply = `Yes: even a tiny site has an LCP image. ${id}`;
    await avaItem.getByLabel("Your reply").fill(reply);
    await avaItem.getByRole("button", { name: "Reply", exact: true }).click();
    const replies = ben.page.getByRole("list", { name: "Replies to Ava Commenter" });
    await expect(replies.getByText(reply)).toBeVisible();
    await expect(avaItem.getByLabel("Your reply")).toBeHidden();

    // Cara answers without JavaScript: the same form, a plain POST; a reply to a reply joins the thread.
    const cara = await person(browser, { javaScriptEnabled: false });
    await register(cara.page, "Cara NoScript");
    await cara.page.goto(POST_PATH);
    const caraItem = cara.page.locator("li", { hasText: top }).first();
    await caraItem.locator("summary", { hasText: "Reply" }).first().click();
    const second = `Agreed, and fonts next. ${id}`;
    await caraItem.getByLabel("Your reply").first().fill(second);
    await caraItem.getByRole("button", { name: "Reply", exact: true }).first().click();
    await expect(cara.page.getByRole("list", { name: "Replies to Ava Commenter" }).getByText(second)).toBeVisible();
    await cara.context.close();

    // Jordan, the post's writer, sees Delete on every comment of the post and removes Ben's reply.
    const jordan = await person(browser);
    await signIn(jordan.page, ACCOUNTS.writer);
    // The writer was told: the bell's page lists Ben's reply under their post (notifications).
    await jordan.page.goto("/notifications");
    await expect(
      jordan.page.getByRole("link", { name: /Ben Replier commented on “Cut Your Web App's Load Time in Half/ }).first(),
    ).toBeVisible();
    await jordan.page.goto(POST_PATH);
    const writerReplies = jordan.page.getByRole("list", { name: "Replies to Ava Commenter" });
    await expect(writerReplies.getByText(reply)).toBeVisible();
    const avaForJordan = jordan.page.locator("li", { hasText: top }).first();
    await expect(avaForJordan.getByRole("button", { name: "Delete comment by Ava Commenter" }).first()).toBeVisible();
    await sectionShots(jordan.page, "comments-thread");
    await writerReplies
      .locator("li", { hasText: reply })
      .getByRole("button", { name: "Delete reply by Ben Replier" })
      .click();
    await expect(swal(jordan.page).locator(".swal2-title")).toHaveText(MSG.confirm.delete.title);
    await swal(jordan.page).getByRole("button", { name: MSG.confirm.delete.button }).click();
    await expect(writerReplies.getByText(reply)).toHaveCount(0);
    await expect(writerReplies.getByText(second)).toBeVisible();

    // Ben, on a fresh load, sees it gone; he cannot delete Ava's comment (no button for him).
    await ben.page.reload();
    await expect(ben.page.getByText(reply)).toHaveCount(0);
    await expect(ben.page.getByRole("button", { name: /^Delete comment by/ })).toHaveCount(0);
    await ben.context.close();
    await jordan.context.close();
  });

  test("a reader reports a comment once, with a reason; an admin keeps one and deletes another at /dashboard/comments", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const id = stamp();
    await register(page, "Troll Tester");
    const keep = `Strong opinion, but fair ${id}`;
    const remove = `Buy cheap followers at spam.example ${id}`;
    await comment(page, keep);
    await comment(page, remove);

    const reader = await person(browser);
    await register(reader.page, "Rosa Reporter");
    await reader.page.goto(POST_PATH);
    for (const text of [keep, remove]) {
      const item = reader.page.locator("li", { hasText: text }).first();
      await item.locator("summary", { hasText: "Report comment by Troll Tester" }).click();
      await item.getByLabel("Spam").check();
      await item.getByRole("button", { name: "Send report" }).click();
      await expect(item.getByRole("status")).toHaveText("Reported. Thank you, an admin will look at it.");
    }
    await reader.context.close();

    const admin = await person(browser);
    await signIn(admin.page, ACCOUNTS.admin);
    await admin.page.goto("/dashboard");
    // The menu says how many comments wait: "Comments, 2 reported" (or more, from other specs).
    await admin.page
      .getByRole("link", { name: /^Comments\W+\d+ reported$/ })
      .first()
      .click();
    await expect(admin.page).toHaveURL(/\/dashboard\/comments$/);
    await expect(admin.page.getByRole("heading", { name: "Reported Comments" })).toBeVisible();
    const list = admin.page.getByRole("list", { name: "Reported comments" });
    await expect(list.getByText(keep)).toBeVisible();
    await expect(list.getByText(remove)).toBeVisible();
    await screenshots(admin.page, "dashboard-comments");

    await list.locator("li", { hasText: keep }).getByRole("button", { name: /^Keep/ }).click();
    await expect(list.getByText(keep)).toHaveCount(0);
    await list
      .locator("li", { hasText: remove })
      .getByRole("button", { name: /^Delete/ })
      .click();
    await swal(admin.page).getByRole("button", { name: MSG.confirm.delete.button }).click();
    await expect(list.getByText(remove)).toHaveCount(0);

    // Kept stays under the post, the deleted one is gone.
    await admin.page.goto(POST_PATH);
    await expect(admin.page.getByText(keep)).toBeVisible();
    await expect(admin.page.getByText(remove)).toHaveCount(0);
    await admin.context.close();
  });
});
