import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, darkScreenshots, hydrated, screenshots, signIn, VIEWPORTS } from "./support";

/** Issue 47, "Analytics". */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test.describe("issue 47: analytics", () => {
  test("a reversed range is swapped and said beside the fields; a future To ends today; the dashboard stays", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
    const reversed = await page.goto(`/dashboard/analytics?from=${day(-3)}&to=${day(-10)}`);
    expect(reversed!.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
    await expect(page.locator("#range-notice")).toContainText("the two dates were swapped");
    await expect(page.getByRole("main").locator('input[name="from"]')).toHaveValue(day(-10));
    await expect(page.getByRole("main").locator('input[name="to"]')).toHaveValue(day(-3));
    await expect(page.getByRole("main").locator('input[name="from"]')).toHaveAccessibleDescription(/swapped/);
    await expectNoSeriousA11yViolations(page);
    await page.emulateMedia({ colorScheme: "light" });
    await screenshots(page, "w47-analytics-swapped-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await screenshots(page, "w47-analytics-swapped-dark");
    await page.emulateMedia({ colorScheme: "light" });

    await page.goto(`/dashboard/analytics?from=${day(-5)}&to=${day(6)}`);
    await expect(page.locator("#range-notice")).toContainText("the range ends today");
    await expect(page.getByRole("main").locator('input[name="to"]')).toHaveValue(day(0));

    // The CSV's name carries the whole range.
    const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    const csv = await page.request.get(href!);
    expect(csv.headers()["content-disposition"]).toContain(`analytics-${day(-5)}-to-${day(0)}.csv`);
  });

  test("Stats on a post opens that post's analytics; Stats says what it counts and where sources are", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
    const mine = (await (await page.request.get("/api/blogs")).json()) as { _id: string; email: string }[];
    const post = mine.find((b) => b.email === ACCOUNTS.writer.email)!;
    await page.goto(`/blogs/${post._id}`);
    await page.getByRole("navigation", { name: "Your post" }).getByRole("link", { name: "Stats" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/analytics/${post._id}$`));
    await expect(page.getByRole("heading", { level: 1, name: /^Analytics: / })).toBeVisible();
    await page.goto("/dashboard/stats");
    await expect(page.getByText("Where readers came from, day by day, is in Analytics.")).toBeVisible();
  });

  test("on a phone the chart opens on the newest day and can be scrolled from the keyboard", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard/analytics?range=30");
    await hydrated(page);
    const box = page.getByTestId("chart-scroll");
    await expect(box).toHaveAttribute("tabindex", "0");
    const { left, max } = await box.evaluate((el) => ({ left: el.scrollLeft, max: el.scrollWidth - el.clientWidth }));
    expect(max).toBeGreaterThan(0);
    expect(left).toBeGreaterThanOrEqual(max - 1);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "w47-analytics-phone-chart");
    await darkScreenshots(page, "w47-analytics-phone-chart");
  });

  test("the privacy page says what analytics records", async ({ page }) => {
    await page.goto("/privacy");
    const text = page.getByText(/without cookies, we record the page/);
    await expect(text).toContainText("country");
    await expect(text).toContainText("device");
    await expect(text).toContainText("browser");
    await expect(text).toContainText("salt that changes every day");
  });

  test("social and search name the sites they hold; Analytics says what it counts and that totals are in Stats", async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    const post = ((await (await page.request.get("/api/blogs")).json()) as { _id: string }[])[0]!;
    const n = Math.floor(Math.random() * 65_000).toString(16);
    const sent = await page.request.post("/api/analytics/hit", {
      headers: {
        Origin: new URL(baseURL!).origin,
        "Content-Type": "text/plain;charset=UTF-8",
        "User-Agent":
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "CF-Connecting-IP": `2001:db8:47:${n}::1`,
      },
      data: JSON.stringify({ path: `/blogs/${post._id}/x`, referrer: "https://news.ycombinator.com/item?id=47" }),
    });
    expect(sent.status()).toBe(204);
    await signIn(page, ACCOUNTS.admin);
    const sites = page.getByRole("region", { name: "Sites in search, social and the fediverse" });
    await expect(async () => {
      await page.goto("/dashboard/analytics");
      await expect(sites.getByRole("row", { name: /news\.ycombinator\.com \(Social sites\)/ })).toBeVisible({
        timeout: 1000,
      });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByText(/all-time likes, comments and saves are in Stats/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "w47-analytics-named-sites");
    await darkScreenshots(page, "w47-analytics-named-sites");
  });
});
