import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn } from "./support";

/** Issue 47, "Admin": what an admin meets once they stay. */
test.describe("issue 47: admin", () => {
  test("every entry of the admin's dashboard menu has its icon, Privacy Policy and Terms of Use too", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard");
    const menu = page.getByRole("navigation", { name: /dashboard/i }).first();
    for (const name of ["Privacy Policy", "Terms of Use", "Fediverse", "Settings"]) {
      await expect(menu.getByRole("link", { name }).locator("svg")).toHaveCount(1);
    }
    await expectNoSeriousA11yViolations(page);
    await page.emulateMedia({ colorScheme: "light" });
    await screenshots(page, "w47-admin-menu-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await screenshots(page, "w47-admin-menu-dark");
  });
});
