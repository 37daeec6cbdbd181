import type { Browser, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { expect, ownAddress, test } from "./fixtures";
import { ACCOUNTS, screenshots, signIn } from "./support";

// A seeded post of the demo writer (Jordan Reyes), at its readable link.
const POST_PATH = "/blogs/dtsmsv96ei1r4bjkcypt/cut-your-web-apps-load-time-in-half-a-practical-checklist";
const PASSWORD = "Report#Journey2026";
const REPORTED = "Reported. Thank you, an admin will look at it.";

let people = 0;
const stamp = () => `${Date.now().toString(36)}${(people++).toString(36)}`;

/** Another person in their own browser (their own client address, as Cloudflare would send), signed up afresh. */
async function person(browser: Browser, name: string, opts: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    extraHTTPHeaders: ownAddress(),
  });
  const page = await context.newPage();
  const email = `reports-${stamp()}@example.com`;
  const res = await page.request.post("/api/auth/register", { data: { name, email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  return { context, page };
}

/** The comment's own card on the post page (its list item holds its replies too). */
const commentCard = (page: Page, text: string) => page.locator('[id^="comment-"]', { hasText: text }).first();

test.describe("reporting a comment with a reason", () => {
  test("a reader reports with a reason, sees the confirmation, withdraws it; the admin sees the reason", async ({
    page,
    browser,
  }) => {
    // Three people and axe twice: room for a busy machine.
    test.setTimeout(240_000);
    const id = stamp();
    const text = `Cheap followers, link in my profile ${id}`;
    const troll = await person(browser, "Tess Troll");
    const made = await troll.page.request.post(`/api/blogs/dtsmsv96ei1r4bjkcypt/comments`, { data: { body: text } });
    expect(made.status()).toBe(201);
    await troll.context.close();

    // Rosa, with JavaScript: Report opens the reasons; "Something else" shows the field for her words.
    const rosa = await person(browser, "Rosa Reasons");
    await rosa.page.goto(POST_PATH);
    const card = commentCard(rosa.page, text);
    await card.locator("summary", { hasText: "Report comment by Tess Troll" }).click();
    const reasons = card.getByRole("group", { name: "Why are you reporting this comment?" });
    await expect(reasons.getByLabel("Spam")).toBeVisible();
    await expect(reasons.getByLabel("Abuse or harassment")).toBeVisible();
    const note = card.getByLabel(/In a few words/);
    await expect(note).toBeHidden();
    await reasons.getByLabel("Something else").check();
    await expect(note).toBeVisible();
    await note.fill(`It advertises followers for sale ${id}`);
    await expectNoSeriousA11yViolations(rosa.page);
    await card.scrollIntoViewIfNeeded();
    await screenshots(rosa.page, "comment-report-form");
    await card.getByRole("button", { name: "Send report" }).click();

    // The confirmation replaces the form, takes the focus, and stays on the next visit.
    const confirmation = card.getByRole("status");
    await expect(confirmation).toHaveText(REPORTED);
    await expect(confirmation).toBeFocused();
    await screenshots(rosa.page, "comment-reported");
    await rosa.page.reload();
    await expect(commentCard(rosa.page, text).getByRole("status")).toHaveText(REPORTED);

    // She takes it back, then thinks again and reports it once more.
    await commentCard(rosa.page, text)
      .getByRole("button", { name: /^Withdraw report/ })
      .click();
    await expect(commentCard(rosa.page, text).getByRole("status")).toHaveText("Your report is withdrawn.");
    await expect(commentCard(rosa.page, text).getByText(REPORTED)).toHaveCount(0);
    await rosa.page.reload();
    await expect(commentCard(rosa.page, text).getByText(REPORTED)).toHaveCount(0);
    const again = commentCard(rosa.page, text);
    await again.locator("summary", { hasText: "Report comment by Tess Troll" }).click();
    await again.getByLabel("Something else").check();
    await again.getByLabel(/In a few words/).fill(`It advertises followers for sale ${id}`);
    await again.getByRole("button", { name: "Send report" }).click();
    await expect(again.getByRole("status")).toHaveText(REPORTED);
    await rosa.context.close();

    // Noah, without JavaScript: the same form is a plain post, and the page answers with the confirmation.
    const noah = await person(browser, "Noah Noscript", { javaScriptEnabled: false });
    await noah.page.goto(POST_PATH);
    const noahCard = commentCard(noah.page, text);
    await noahCard.locator("summary", { hasText: "Report comment by Tess Troll" }).click();
    await noahCard.getByLabel("Spam").check();
    await noahCard.getByRole("button", { name: "Send report" }).click();
    await expect(commentCard(noah.page, text).getByText(REPORTED)).toBeVisible();
    await noah.context.close();

    // The admin: the menu counts what waits, and the list says why, in the reporters' words.
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard");
    const comments = page.getByRole("link", { name: /^Comments\W+\d+ reported$/ }).first();
    await expect(comments).toBeVisible();
    await comments.click();
    await expect(page).toHaveURL(/\/dashboard\/comments$/);
    const item = page.getByRole("list", { name: "Reported comments" }).getByRole("listitem").filter({ hasText: text });
    await expect(item.getByText("2 reports")).toBeVisible();
    const why = item.getByRole("list", { name: "Reasons for reporting the comment by Tess Troll" });
    await expect(why.getByText("Spam: 1")).toBeVisible();
    await expect(why.getByText("Something else: 1")).toBeVisible();
    await expect(item.getByText(`It advertises followers for sale ${id}`)).toBeVisible();
    await expect(item.getByText("(Rosa Reasons)")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "dashboard-comments-reasons");
  });

  test("the post's writer sees the comments on their posts at Dashboard → Comments", async ({ page, browser }) => {
    test.setTimeout(120_000);
    const text = `A question for the writer ${stamp()}`;
    const reader = await person(browser, "Quinn Question");
    expect(
      (await reader.page.request.post(`/api/blogs/dtsmsv96ei1r4bjkcypt/comments`, { data: { body: text } })).status(),
    ).toBe(201);
    await reader.context.close();

    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard");
    await page.getByRole("navigation", { name: "Dashboard" }).first().getByRole("link", { name: "Comments" }).click();
    await expect(page.getByRole("heading", { name: "Comments on Your Posts" })).toBeVisible();
    const list = page.getByRole("list", { name: "Comments on your posts" });
    await expect(list.getByText(text)).toBeVisible();
    await expect(list.getByRole("button", { name: "Delete comment by Quinn Question" }).first()).toBeVisible();
    // No reported list, no numbers: those are the admin's.
    await expect(page.getByRole("link", { name: /reported$/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "dashboard-comments-writer");
  });
});
