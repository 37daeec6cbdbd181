import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, postsOf, screenshots, signIn } from "./support";

// Headless Chromium names itself "HeadlessChrome", which isbot rightly takes for a bot: read as a person's browser.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

test.describe("stats", () => {
  test("a reader's view of a post shows on its writer's Stats page", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.setExtraHTTPHeaders({ "User-Agent": BROWSER });
    const posts = await postsOf(page, ACCOUNTS.writer);
    const post = posts[0]!;

    // A reader opens the post: the page sends its beacon, which counts.
    const beacon = page.waitForResponse((r) => r.url().endsWith(`/api/blogs/${post._id}/view`));
    await page.goto(`/blogs/${post._id}`);
    const answer = await beacon;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ counted: true });

    // Its writer signs in and opens Stats from the dashboard menu.
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Stats" }).click();
    await expect(page).toHaveURL(/\/dashboard\/stats$/);
    await expect(page.getByRole("heading", { level: 1, name: "Stats" })).toBeVisible();
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: post.title, exact: true }) });
    await expect(row.getByRole("cell").nth(1)).toHaveText(/^[1-9]\d*$/);
    await expect(page.getByRole("img", { name: /Views per day, last 30 days/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "dashboard-stats");
  });

  test("an admin sees the whole site", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard/stats");
    await expect(page.getByRole("img", { name: /Site views per day/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "All posts" })).toBeVisible();
    await screenshots(page, "dashboard-stats-admin");
  });
});
