import { expect, test } from "./fixtures";
import { MSG } from "#app/lib/messages.ts";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, signIn } from "./support";

/**
 * A signed-out visitor (perhaps locked out of their account) wrote a whole message, was told to
 * sign in, and lost it. Visitors now send it, behind the per-address limit and a honeypot field.
 */
test("a visitor's contact message is sent, and reaches the admin inbox", async ({ page, browser, baseURL }) => {
  const marker = `Locked out of my account ${Date.now()}`;
  await page.goto("/contact");
  await expect(page.getByText("You need to be signed in")).toHaveCount(0);
  await page.getByLabel("Name", { exact: true }).fill("Visiting Vera");
  await page.getByLabel("Email", { exact: true }).fill("vera@example.com");
  await page.getByLabel("Message", { exact: true }).fill(marker);
  // The honeypot is out of sight and out of the tab order.
  await expect(page.locator('input[name="website"]')).not.toBeInViewport();
  await expect(page.locator('input[name="website"]')).toHaveAttribute("tabindex", "-1");
  await page.getByRole("button", { name: "Send Message" }).click();
  const dialog = page.locator(".swal2-popup");
  await expect(dialog.locator(".swal2-title")).toHaveText(MSG.contact.successTitle);
  await expect(page).toHaveURL(/\/contact$/);
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
  await expectNoSeriousA11yViolations(page);

  const admin = await browser.newContext({ baseURL });
  const adminPage = await admin.newPage();
  await signIn(adminPage, ACCOUNTS.admin);
  await adminPage.goto("/dashboard/inbox");
  await expect(adminPage.getByText(marker)).toBeVisible();
  await admin.close();
});
