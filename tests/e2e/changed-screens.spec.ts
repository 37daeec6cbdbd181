import { expect, test } from "./fixtures";
import { ACCOUNTS, screenshots, signIn } from "./support";

/** The screens changed for returning writers, readers and admins, at 375 and 1280 px, light and dark. */
test("screenshots of the changed screens, both themes", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, ACCOUNTS.admin);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/dashboard/pages/privacy");
    // The page editor previews the Markdown as it will read.
    await expect(page.getByText("Preview", { exact: true })).toBeVisible();
    await screenshots(page, `page-editor-${scheme}`);
    await page.goto("/dashboard/newsletter");
    await screenshots(page, `newsletter-admin-${scheme}`);
    await page.goto("/dashboard/manageReview");
    await screenshots(page, `manage-review-${scheme}`);
    await page.goto("/newsletter/unsubscribe?token=broken");
    await screenshots(page, `unsubscribe-broken-${scheme}`);
    await page.goto("/blogs/dtsmsv96ei1r4bjkcypt");
    await screenshots(page, `post-admin-links-${scheme}`);
    await page.goto("/notifications");
    await screenshots(page, `notifications-${scheme}`);
  }
});
