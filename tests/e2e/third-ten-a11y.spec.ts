import { expect, test } from "./fixtures";
import { ACCOUNTS, darkScreenshots, hydrated, screenshots, signIn, VIEWPORTS } from "./support";

/** Issue 47, "Accessibility". */
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe("issue 47: accessibility", () => {
  test("without JavaScript the dark-mode button, which could do nothing, is not shown; with it, it is", async ({
    browser,
    page,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: VIEWPORTS.phone });
    const bare = await context.newPage();
    await bare.goto(`${baseURL}/`);
    await expect(bare.getByTestId("theme-toggle")).toBeHidden();
    await bare.screenshot({ path: "e2e-artifacts/screenshots/w47-no-js-top-bar-375.png" });
    await context.close();
    // An anonymous reader's home page is served without the framework: the toggle is the island's (decision 059).
    await page.goto("/");
    await expect(page.getByTestId("theme-toggle")).toBeVisible();
  });

  test("Create Profile opens with focus in Bio, not on the locked Name", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    const email = `a11y-${tag()}@example.com`;
    const res = await page.request.post("/api/auth/register", {
      data: { name: "Focus Person", email, password: "Sunny-Garden-42" },
    });
    expect(res.status()).toBe(201);
    await page.goto("/Profile");
    await hydrated(page);
    await page.getByRole("link", { name: "Create Profile" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Profile" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("textbox", { name: "Bio" })).toBeFocused();
    await screenshots(page, "w47-create-profile-focus");
  });

  test("on a phone every half star is a target at least 24 px wide", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/dashboard/feedback");
    const halves = page.locator("[data-half]");
    await expect(halves).toHaveCount(10);
    for (let i = 0; i < 10; i++) {
      const box = (await halves.nth(i).boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }
    await screenshots(page, "w47-feedback-stars");
    await darkScreenshots(page, "w47-feedback-stars");
    // Where there is room for a mouse, the spec's size 24 stays.
    await page.setViewportSize(VIEWPORTS.desktop);
    expect((await halves.first().boundingBox())!.width).toBe(12);
  });

  test("after opening Share from the keyboard, Tab goes through the share panel before Save", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    const post = ((await (await page.request.get("/api/blogs")).json()) as { _id: string }[])[0]!;
    // A visitor's page (no framework: the reading island opens the panel), then the signed-in app's.
    for (const who of ["visitor", "writer"] as const) {
      if (who === "writer") await signIn(page, ACCOUNTS.writer);
      await page.goto(`/blogs/${post._id}`);
      if (who === "writer") await hydrated(page);
      const share = page.getByRole("group", { name: "Post actions" }).getByRole("button", { name: "Share" });
      await share.focus();
      await page.keyboard.press("Enter");
      const panel = page.getByRole("region", { name: "Share this post" });
      await expect(panel).toBeVisible();
      // Focus is in the panel, on its first way to share; Tab stays in it, never back to Save first.
      await expect(panel.getByRole("link").first()).toBeFocused();
      await page.keyboard.press("Tab");
      expect(await panel.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await page.keyboard.press("Escape");
      await expect(share).toBeFocused();
    }
  });

  test("on a phone a search's results start on the first screen, under a smaller hero", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/allBlogs?q=the");
    await expect(page.getByRole("heading", { name: "Results" })).toBeInViewport();
    // The first result's title is read without scrolling (it sat a screen down, under the whole hero).
    const title = page.getByRole("region", { name: "Results" }).getByRole("listitem").first().getByRole("heading");
    const box = (await title.first().boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(VIEWPORTS.phone.height);
    await screenshots(page, "w47-search-phone");
    await darkScreenshots(page, "w47-search-phone");
  });
});
