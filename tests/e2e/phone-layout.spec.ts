import { expect, test } from "./fixtures";
import { VIEWPORTS } from "./support";

/** Layout defects once seen on a phone (375 px), each pinned. */
test.describe("layout at 375 px", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
  });

  test("Register's file input shows its whole label", async ({ page }) => {
    await page.goto("/register");
    const input = page.getByLabel("Profile image");
    const box = (await input.boundingBox())!;
    // Chromium cuts "No file chosen" to "No …sen" below about 200 px.
    expect(box.width).toBeGreaterThanOrEqual(250);
  });

  test('"Comment 1" stays on one line', async ({ page }) => {
    await page.goto("/allBlogs");
    const href = (await page.getByRole("article").first().getByRole("link").first().getAttribute("href"))!;
    await page.goto(href);
    const button = page.getByRole("group", { name: "Post actions" }).getByRole("button", { name: /^Comment/ });
    const fits = await button.evaluate((el) => {
      const label = [...el.querySelectorAll("span")].find((s) => s.textContent?.startsWith("Comment"))!;
      const lineHeight = parseFloat(getComputedStyle(label).lineHeight) || 20;
      return {
        oneLine: label.getBoundingClientRect().height < lineHeight * 1.5,
        inside: el.scrollWidth <= el.clientWidth,
      };
    });
    expect(fits).toEqual({ oneLine: true, inside: true });
  });
});
