import { expect, test } from "./fixtures";

// A seeded post (seed/content.json) and its readable link.
const POST = "dtsmsv96ei1r4bjkcypt";
const FULL = `/blogs/${POST}/cut-your-web-apps-load-time-in-half-a-practical-checklist`;

test.describe("readable links", () => {
  test("/blogs/{id} and an old slug land on the readable link, which is canonical", async ({ page }) => {
    const bare = await page.request.get(`/blogs/${POST}`, { maxRedirects: 0 });
    expect(bare.status()).toBe(301);
    expect(bare.headers()["location"]).toBe(FULL);
    await page.goto(`/blogs/${POST}/an-old-title`);
    await expect(page).toHaveURL(new RegExp(`${FULL}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Cut Your Web App's Load Time");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${FULL}$`));
  });
});
