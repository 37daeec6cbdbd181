import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, postsOf, screenshots, signIn } from "./support";

// Headless Chromium names itself "HeadlessChrome", which isbot rightly takes for a bot: read as a person's browser.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

test.describe("analytics", () => {
  test("a visitor's read of a cached post shows on its writer's dashboard with its source and country", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    const posts = await postsOf(page, ACCOUNTS.writer);
    const post = posts[1]!;
    // Cloudflare says where the reader is (CF-IPCountry); wrangler dev does not, so the page context sends it.
    await page.context().setExtraHTTPHeaders({
      "User-Agent": BROWSER,
      "CF-IPCountry": "FR",
      "CF-Connecting-IP": "2001:db8:feed::35",
    });

    // The post is in the edge cache first (another visitor's read); this visitor comes from the newsletter.
    const readable = new URL((await page.request.get(`/blogs/${post._id}`)).url()).pathname;
    const beacon = page.waitForResponse((r) => r.url().endsWith("/api/analytics/hit"));
    // The newsletter's link: the post's readable link with ?ref=newsletter (worker/services/newsletter/delivery.ts).
    await page.goto(`${readable}?ref=newsletter`);
    const answer = await beacon;
    expect(answer.status()).toBe(204);
    expect(answer.headers()["set-cookie"]).toBeUndefined();
    expect(JSON.parse(answer.request().postData() ?? "{}")).toMatchObject({
      path: expect.stringMatching(new RegExp(`^/blogs/${post._id}/[^/?#]+\\?ref=newsletter$`)),
    });

    // Its writer signs in and opens Analytics from the dashboard menu; the queue folds the hit within seconds.
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Analytics" }).click();
    await expect(page).toHaveURL(/\/dashboard\/analytics$/);
    const topPosts = page.getByRole("region", { name: "Top posts" });
    await expect(async () => {
      await page.reload();
      await expect(topPosts.getByRole("link", { name: post.title })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole("region", { name: "Sources" }).getByRole("row", { name: /Newsletter/ })).toBeVisible();
    await expect(page.getByRole("region", { name: "Countries" }).getByRole("row", { name: /France/ })).toBeVisible();
    await expect(page.getByTestId("analytics-recent")).toContainText(/[1-9]\d* pageviews? in the last 30 minutes/);

    // The chart's points are reached with the keyboard and say their numbers.
    const point = page.getByTestId("chart-point").last();
    await point.focus();
    await expect(point).toBeFocused();
    await expect(point).toHaveAttribute("aria-label", /[1-9]\d* pageviews?, [1-9]\d* visitors?/);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "dashboard-analytics");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "dashboard-analytics-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // The post's own page, and its CSV.
    await topPosts.getByRole("link", { name: post.title }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Analytics: ${post.title}` })).toBeVisible();
    await expect(page.getByRole("region", { name: "Sources" }).getByRole("row", { name: /Newsletter/ })).toBeVisible();
    const csv = await page.request.get(`/dashboard/analytics.csv?post=${post._id}`);
    expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
    expect(await csv.text()).toMatch(/^source,newsletter,newsletter,[1-9]/m);
  });

  test("an admin sees the whole site, and any post through the API", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    const posts = await postsOf(page, ACCOUNTS.writer);
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard/analytics?range=90");
    await expect(page.getByText("Every page of the site.", { exact: false })).toBeVisible();
    await expect(page.getByRole("link", { name: "90 days" })).toHaveAttribute("aria-current", "page");
    const api = await page.request.get(`/api/analytics/summary?post=${posts[0]!._id}`);
    expect(api.status()).toBe(200);
  });
});
