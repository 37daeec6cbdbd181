import { expect, test } from "./fixtures";
import { VIEWPORTS, screenshots } from "./support";

test.describe("smoke", () => {
  test("home page lists the seeded latest blogs and the top bar navigates", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    const latest = page.getByRole("region", { name: "Latest Blogs" });
    await expect(latest.getByRole("article")).toHaveCount(6);
    await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getFullYear()} Edge Blog Ltd`);
    await screenshots(page, "home");

    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "All Blogs" }).click();
    await expect(page).toHaveURL(/\/allBlogs$/);
    await nav.getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(latest.getByRole("article").first()).toBeVisible();
  });

  test("the phone menu opens, lists the four links and navigates", async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByLabel("Open menu").click();
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobile.getByRole("link")).toHaveText(["Home", "About Us", "All Blogs", "Contact"]);
    await mobile.getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(mobile).toBeHidden();
  });

  test("an unknown page shows the 404 page", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await screenshots(page, "not-found");
  });
});
