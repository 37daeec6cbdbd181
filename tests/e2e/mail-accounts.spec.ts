import type { Page } from "@playwright/test";
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";
import { linkIn, readMail } from "./mail";
import { SCREENSHOT_DIR, VIEWPORTS, screenshots } from "./support";

const PASSWORD = "Sunny-Garden-42";
let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;
const swal = (page: Page) => page.locator(".swal2-popup");
const BANNER = "Please confirm your email address.";

/** Keeps the screenshots people look at in the repository (docs/screenshots/). */
function keep(name: string) {
  mkdirSync("docs/screenshots", { recursive: true });
  for (const size of Object.values(VIEWPORTS))
    copyFileSync(path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`), `docs/screenshots/${name}-${size.width}.png`);
}

test.describe("mail: verification and password reset, read the way local development reads mail", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  test("sign up, verify by the link in the mail, and the banner goes", async ({ page }) => {
    const email = uniqueEmail("verify");
    const since = Date.now();
    await page.goto("/register");
    await page.getByLabel("Username").fill("Vera Verify");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Register" }).click();

    // The spec's journey is unchanged: signed in at once, with the success message...
    await expect(page).toHaveURL(/\/$/);
    await expect(swal(page)).toContainText("Registration Successful!");
    // ... and a banner that asks for the confirmation, offering the link again.
    const banner = page.getByRole("region", { name: "Confirm your email address" });
    await expect(banner).toContainText(BANNER);
    await expect(banner.getByRole("button", { name: "Resend the link" })).toBeVisible();

    const mail = await readMail(email, since);
    expect(mail.text).toContain("Confirm your email address");
    expect(mail.html).toContain("prefers-color-scheme: dark");
    const link = linkIn(mail.text, "/verify-email");
    expect(link.origin).toBe(new URL(page.url()).origin);

    // Opening the link only asks (a link scanner confirms nothing); the button confirms.
    await page.goto(link.toString());
    await expect(page.getByRole("heading", { name: "Confirm your email address" })).toBeVisible();
    expect(await (await page.request.get("/api/auth/me")).json()).toMatchObject({ emailVerified: false });
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "verify-email-confirm");
    keep("verify-email-confirm");
    await page.getByRole("button", { name: "Confirm my email address" }).click();
    await expect(page.getByRole("heading", { name: "Email address confirmed" })).toBeVisible();
    await page.goto("/allBlogs");
    await expect(page.getByText(BANNER)).toHaveCount(0);
    const me = await (await page.request.get("/api/auth/me")).json();
    expect(me).toMatchObject({ email, emailVerified: true });

    // The link is single-use.
    await page.goto(link.toString());
    await expect(page.getByRole("heading", { name: "Email address confirmed" })).toBeVisible();
    await page.context().clearCookies();
    await page.goto(link.toString());
    await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();

    // The mail's HTML, light and dark, as a mail client would show it.
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setContent(mail.html);
      await screenshots(page, `email-verify-${scheme}`);
      keep(`email-verify-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: null });
  });

  test("the banner resends the link without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail("resend");
    const res = await page.request.post("/api/auth/register", { data: { name: "Rita", email, password: PASSWORD } });
    expect(res.status()).toBe(201);
    await page.goto("/allBlogs");
    const since = Date.now();
    await page.getByRole("button", { name: "Resend the link" }).click();
    await expect(page).toHaveURL(/\/allBlogs$/);
    const mail = await readMail(email, since);
    await page.goto(linkIn(mail.text, "/verify-email").toString());
    await page.getByRole("button", { name: "Confirm my email address" }).click();
    await expect(page.getByRole("heading", { name: "Email address confirmed" })).toBeVisible();
    await context.close();
  });

  test("forgot password, reset by the link, and sign in with the new password", async ({ page }) => {
    const email = uniqueEmail("reset");
    expect(
      (
        await page.request.post("/api/auth/register", { data: { name: "Rosa Reset", email, password: PASSWORD } })
      ).status(),
    ).toBe(201);
    await page.context().clearCookies();

    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "forgot-password");
    keep("forgot-password");

    const since = Date.now();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();

    const mail = await readMail(email, since);
    expect(mail.text).toContain("Reset your password");
    const link = linkIn(mail.text, "/reset-password");
    await page.goto(link.toString());
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "reset-password");
    keep("reset-password");

    const next = "Brand-New-Password-7";
    await page.getByLabel("New password").fill(next);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(swal(page)).toContainText("Password changed");

    // The owner is told.
    await readMail("Your password was changed", since);

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(next);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Account menu for Rosa Reset" })).toBeVisible();

    // The link worked once.
    await page.goto(link.toString());
    await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  });
});
