import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, localD1 as d1, signIn } from "./support";

/**
 * A large site in a browser: /allBlogs with many pages shows a handful of page buttons, Manage Users pages
 * and searches, and a post's comments come 20 at a time with "Show more" (with and without JavaScript).
 * The extra rows go straight into the e2e server's local D1 (one SQL statement each) and are removed after.
 */
const POSTS = 60;
const ACCOUNTS_ADDED = 45;
const COMMENTS = 30;
const BUSY = `scalepost${String(POSTS).padStart(11, "0")}`;
const SHOTS = path.resolve("docs/screenshots");

const SEED = `
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ACCOUNTS_ADDED})
INSERT INTO users (id, name, email, role) SELECT printf('scaleuser%011d', i), 'Scale Reader ' || i, 'scale.reader' || i || '@edgeblog.test', 'user' FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${POSTS})
INSERT INTO blogs (id, author_id, title, short_description, blog_details, category, author_name, email, date_time, image, status)
SELECT printf('scalepost%011d', i), u.id, 'Scale post ' || i, 'A short description of scale post ' || i || '.',
       'The body of scale post ' || i || '.', 'Technology', u.name, u.email,
       strftime('%Y-%m-%dT%H:%M:%fZ', 1900000000 + i * 60, 'unixepoch'), '/images/seed-cover-cut-web-apps-load-time-half.jpg', 'published'
FROM n, users u WHERE u.email = 'writer@edgeblog.test';
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${COMMENTS})
INSERT INTO comments (id, blog_id, user_id, body, created_at)
SELECT printf('scalecomment%011d', i), '${BUSY}', printf('scaleuser%011d', (i % ${ACCOUNTS_ADDED}) + 1), 'Scale comment ' || i, 1900000000000 + i * 1000 FROM n;`;

const CLEANUP = `DELETE FROM blogs WHERE id LIKE 'scalepost%'; DELETE FROM users WHERE id LIKE 'scaleuser%';`;

/** Full-page screenshots at 375 and 1280 px into docs/screenshots/ (they are looked at, and kept). */
async function shots(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}.png`), fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

test.describe("a site with many pages", () => {
  test.describe.configure({ mode: "serial" });

  test.beforeAll(() => {
    d1(CLEANUP);
    d1(SEED);
  });
  test.afterAll(() => d1(CLEANUP));

  test("/allBlogs shows a handful of page buttons and moves through them", async ({ page }) => {
    // Signed in: the answers are personal, so no shared copy from another spec is in the way.
    await signIn(page, ACCOUNTS.writer);
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/allBlogs?page=8");
    const pager = page.getByRole("navigation", { name: "All blogs pages" });
    await expect(pager.getByRole("link", { name: "8", exact: true })).toHaveAttribute("aria-current", "page");
    const labels = await pager.locator("a, span").allInnerTexts();
    // At least 75 posts (15 demo + 60), 4 a page: 19 pages or more, drawn as Prev 1 … 7 8 9 … 19 Next.
    const shown = labels.map((t) => t.trim());
    const last = shown[shown.length - 2]!;
    expect(Number(last)).toBeGreaterThanOrEqual(19);
    expect(shown).toEqual(["Prev", "1", "…", "7", "8", "9", "…", last, "Next"]);
    await pager.getByRole("link", { name: last, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`page=${last}$`));
    await expect(pager.getByRole("link", { name: last, exact: true })).toHaveAttribute("aria-current", "page");
    await pager.getByRole("link", { name: "Prev" }).click();
    await expect(page).toHaveURL(new RegExp(`page=${Number(last) - 1}$`));
    await page.goto("/allBlogs?page=8");
    await shots(page, "scale-allblogs-page-8");
  });

  test("Manage Users pages the accounts and finds one by name or email", async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto("/dashboard/manageUsers");
    await expect(page.getByText(/\d+ accounts, \d+ admins?/)).toBeVisible();
    const pager = page.getByRole("navigation", { name: "Users pages" });
    await expect(pager.getByRole("link", { name: "1", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("row")).toHaveCount(21);
    // Page by page: the pager shows the pages beside the current one (how many there are in all depends on
    // the accounts earlier specs made, so page 3 need not be listed from page 1).
    await pager.getByRole("link", { name: "2", exact: true }).click();
    await expect(page).toHaveURL(/page=2$/);
    await pager.getByRole("link", { name: "3", exact: true }).click();
    await expect(page).toHaveURL(/page=3$/);
    await expect(pager.getByRole("link", { name: "3", exact: true })).toHaveAttribute("aria-current", "page");

    // By name: every word must match, the last as a prefix of two characters or more (A
    // one-character word is dropped, it would match nearly everyone), so "40" finds Scale Reader 40 alone.
    await page.getByLabel("Search users by name or email").fill("scale reader 40");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=scale\+reader\+40/);
    await expect(page.getByText(/1 account matches/)).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "Scale Reader 40" })).toHaveCount(1);
    await expect(page.getByRole("row")).toHaveCount(2);

    // By the start of an email: "scale.reader4" is a prefix of scale.reader4@ and scale.reader40@ to 45@.
    await page.getByLabel("Search users by name or email").fill("scale.reader4");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=scale\.reader4(&|$)/);
    await expect(page.getByText(/7 accounts match/)).toBeVisible();
    await expect(page.getByRole("row")).toHaveCount(8);
    await shots(page, "scale-manage-users-search");

    await page.getByLabel("Search users by name or email").fill("scale.reader12@");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText(/1 account matches/)).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "scale.reader12@edgeblog.test" })).toHaveCount(1);
  });

  test("a post's comments: the newest 20, then Show more adds the rest (with JavaScript)", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(`/blogs/${BUSY}`);
    const list = page.getByRole("list", { name: "Comments, newest first" });
    await expect(page.getByRole("heading", { name: `Comments (${COMMENTS})` })).toBeVisible();
    await expect(list.getByRole("listitem")).toHaveCount(20);
    await expect(list.getByRole("listitem").first()).toContainText("Scale comment 30");
    await page.getByRole("link", { name: "Show more" }).click();
    await expect(list.getByRole("listitem")).toHaveCount(COMMENTS);
    await expect(list.getByRole("listitem").last()).toContainText("Scale comment 1");
    await expect(page.getByRole("link", { name: "Show more" })).toHaveCount(0);
    // Stayed on the page: no navigation, the newest are still there.
    await expect(page).toHaveURL(new RegExp(`/blogs/${BUSY}/[a-z0-9-]+$`));
    await shots(page, "scale-comments-show-more");
  });

  test("Show more works without JavaScript too (a link to the older comments)", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, ACCOUNTS.writer);
    await page.goto(`/blogs/${BUSY}`);
    const list = page.getByRole("list", { name: "Comments, newest first" });
    await expect(list.getByRole("listitem")).toHaveCount(20);
    await page.getByRole("link", { name: "Show more" }).click();
    await expect(page).toHaveURL(/\?comments=[\w-]+#comments$/);
    await expect(list.getByRole("listitem")).toHaveCount(10);
    await expect(list.getByRole("listitem").first()).toContainText("Scale comment 10");
    await expect(page.getByRole("link", { name: "Back to the newest comments" })).toBeVisible();
    await context.close();
  });
});
