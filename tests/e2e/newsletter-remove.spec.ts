import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn } from "./support";

test.describe("newsletter admin", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the subscriber table reads at 375 px, and an admin removes a subscriber after confirming", async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    const email = `remove-me-${Date.now().toString(36)}@example.com`;
    const imported = await page.request.post("/api/newsletter/subscribers.csv", {
      data: `email\n${email}\n`,
      headers: { "Content-Type": "text/csv" },
    });
    expect(imported.status()).toBe(200);

    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/dashboard/newsletter");
    const row = page.getByRole("row").filter({ hasText: email });
    await expect(row).toBeVisible();
    // Nothing is clipped sideways on a phone: the rows stack as cards.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "newsletter-admin");

    // Hydrated: the button posts after the dialog (before, it is the /confirm page's GET form).
    await expect(row.locator('form[method="post"]')).toBeAttached();
    await row.getByRole("button", { name: `Remove ${email}` }).click();
    const dialog = page.locator(".swal2-popup");
    await expect(dialog).toContainText("Remove this subscriber?");
    await dialog.getByRole("button", { name: "Yes, remove" }).click();
    await expect(page.getByTestId("flash-notice")).toContainText(`${email} is off the list`);
    await expect(row).toHaveCount(0);
    const list = (await (
      await page.request.get(`/api/newsletter/subscribers?q=${encodeURIComponent(email)}`)
    ).json()) as { subscribers: unknown[] };
    expect(list.subscribers).toEqual([]);
  });
});
