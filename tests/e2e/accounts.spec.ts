import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import path from "node:path";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, SCREENSHOT_DIR, VIEWPORTS, screenshots, signIn } from "./support";

const PHOTO = path.resolve("seed/images/seed-avatar-maya-okafor.jpg");
const PASSWORD = "Sunny-Garden-42";
let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;

/** What is on screen (not the full page) at both widths: for menus and dialogs at the top of long pages. */
async function viewportShots(page: Page, name: string) {
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

/** The SweetAlert2 dialog on screen. */
const swal = (page: Page) => page.locator(".swal2-popup");

/** A fresh account, signed in through the real register call (the cookie lands in the page's context). */
async function registerViaApi(page: Page, name: string) {
  const email = uniqueEmail("e2e");
  const res = await page.request.post("/api/auth/register", { data: { name, email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  return { name, email };
}

test.describe("accounts", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  test("register with a photo lands on / signed in, the avatar showing the uploaded photo", async ({ page }) => {
    await page.goto("/register");
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "register");

    await page.getByLabel("Username").fill("Ada Lovelace");
    await page.getByLabel("Email").fill(uniqueEmail("ada"));
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Profile image").setInputFiles(PHOTO);
    await expect(page.getByAltText("Preview of the chosen image")).toBeVisible();
    await page.getByRole("button", { name: "Register" }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(swal(page)).toContainText("Registration Successful!");
    await expect(swal(page)).toContainText("Your account is ready, and you are signed in.");
    const avatar = page.getByRole("button", { name: "Account menu for Ada Lovelace" }).locator("img");
    await expect(avatar).toHaveAttribute("src", /^\/images\/[0-9a-z_-]+\.jpg$/);
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  });

  test("a refused password is explained beside the field, keeping the typed name and email (not the password)", async ({
    page,
  }) => {
    const email = uniqueEmail("weak");
    await page.goto("/register");
    await page.getByLabel("Username").fill("Weak Password");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("12345678");
    await page.getByRole("button", { name: "Register" }).click();

    const password = page.getByLabel("Password");
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(
      page.getByText("Password must be 8 to 128 characters long and contain something other than digits."),
    ).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveValue("Weak Password");
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(password).toHaveValue("");
    await expect(page.getByRole("link", { name: "Sign in", exact: true }).first()).toBeVisible();
    await screenshots(page, "register-errors");
  });

  test("a failed sign-in shows the Error dialog with the reason and Try again, keeps the email, clears the password", async ({
    page,
  }) => {
    await page.goto("/login");
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "login");

    await page.getByLabel("Email").fill(ACCOUNTS.writer.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await expect(swal(page).locator(".swal2-title")).toHaveText("Error");
    await expect(swal(page)).toContainText("Invalid email or password.");
    await expect(page.getByLabel("Email")).toHaveValue(ACCOUNTS.writer.email);
    await expect(page.getByLabel("Password")).toHaveValue("");
    await screenshots(page, "login-error");
    await swal(page).getByRole("button", { name: "Try again" }).click();
    await expect(swal(page)).toBeHidden();
  });

  test("a successful sign-in says Login successful and goes home", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(ACCOUNTS.writer.email);
    await page.getByLabel("Password").fill(ACCOUNTS.writer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(swal(page)).toContainText("Login successful");
    await expect(swal(page)).toContainText("Welcome to Edge Blog!");
    await expect(page.getByRole("button", { name: /^Account menu for/ })).toBeVisible();
  });

  test("a visitor sent from a guarded page to /login comes back to it after signing in", async ({ page }) => {
    await page.goto("/Profile");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2FProfile$/);
    await page.getByLabel("Email").fill(ACCOUNTS.writer.email);
    await page.getByLabel("Password").fill(ACCOUNTS.writer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/Profile$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("main").getByText(ACCOUNTS.writer.email)).toBeVisible();
  });

  test("the avatar menu toggles on click and closes on Escape, outside clicks and Profile", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/about");
    const button = page.getByRole("button", { name: /^Account menu for/ });
    const menu = page.locator("#account-menu");

    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(menu.getByRole("link", { name: "Profile" })).toBeFocused();
    await expect(menu.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await viewportShots(page, "avatar-menu");
    await button.click();
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    await button.click();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();

    // Keyboard: Enter opens it with focus on the first item, and Tab walks its items.
    await page.keyboard.press("Enter");
    await expect(menu.getByRole("link", { name: "Profile" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: "Dashboard" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: "Write" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: "Reading list" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: "Following" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: "Settings" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("button", { name: "Sign Out" })).toBeFocused();

    await page.getByRole("heading", { level: 1 }).first().click();
    await expect(menu).toBeHidden();

    await button.click();
    await menu.getByRole("link", { name: "Profile" }).click();
    await expect(page).toHaveURL(/\/Profile$/);
    await expect(menu).toBeHidden();
  });

  test("sign out asks first: Cancel does nothing, Yes, Logout signs out", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/");
    const button = page.getByRole("button", { name: /^Account menu for/ });

    await button.click();
    await page.locator("#account-menu").getByRole("button", { name: "Sign Out" }).click();
    await expect(swal(page).locator(".swal2-title")).toHaveText("Are you sure?");
    await expect(swal(page)).toContainText("You will be logged out!");
    await expect(swal(page).locator(".swal2-icon.swal2-warning")).toBeVisible();
    await viewportShots(page, "sign-out-confirm");
    await swal(page).getByRole("button", { name: "Cancel" }).click();
    await expect(swal(page)).toBeHidden();
    await expect(button).toBeVisible();
    await page.goto("/Profile");
    await expect(page).toHaveURL(/\/Profile$/);

    await button.click();
    await page.locator("#account-menu").getByRole("button", { name: "Sign Out" }).click();
    await swal(page).getByRole("button", { name: "Yes, Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(swal(page)).toContainText("Logged Out!");
    await expect(swal(page)).toContainText("You have been signed out successfully.");
    await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
    await page.goto("/Profile");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2FProfile$/);
  });

  test("a sign-out that fails says Error! with the reason, and the person stays signed in", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/about");
    const button = page.getByRole("button", { name: /^Account menu for/ });

    // The network fails: the browser's own message.
    await page.route("**/logout", (route) => route.abort("internetdisconnected"));
    await button.click();
    await page.locator("#account-menu").getByRole("button", { name: "Sign Out" }).click();
    await swal(page).getByRole("button", { name: "Yes, Logout" }).click();
    await expect(swal(page).locator(".swal2-title")).toHaveText("Error!");
    await expect(swal(page)).toContainText("Failed to fetch");
    await swal(page).getByRole("button", { name: "OK" }).click();

    // The server cannot end the session: its sentence.
    await page.unroute("**/logout");
    await page.route("**/logout", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "database-unavailable", message: "The database is not answering." } }),
      }),
    );
    await button.click();
    await page.locator("#account-menu").getByRole("button", { name: "Sign Out" }).click();
    await swal(page).getByRole("button", { name: "Yes, Logout" }).click();
    await expect(swal(page).locator(".swal2-title")).toHaveText("Error!");
    await expect(swal(page)).toContainText("The database is not answering.");
    await swal(page).getByRole("button", { name: "OK" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await page.unroute("**/logout");
    await page.goto("/Profile");
    await expect(page).toHaveURL(/\/Profile$/);
  });

  test("Google sign-in with no provider configured says so clearly", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("button", { name: /Continue with Facebook/ })).toBeDisabled();
    await expect(page.getByRole("button", { name: /Continue with Facebook/ })).toHaveAttribute(
      "title",
      "Facebook sign-in is not available",
    );
    const popup = page.waitForEvent("popup");
    await page.getByRole("link", { name: "Sign in with Google" }).click();
    await popup;
    await expect(swal(page).locator(".swal2-title")).toHaveText("Google sign-in failed");
    await expect(swal(page)).toContainText("Google sign-in is not available on this site yet.");
    await screenshots(page, "google-not-configured");
  });

  test("Profile: create it in the dialog (All fields are required! first), then edit it", async ({ page }) => {
    const me = await registerViaApi(page, "Profile Person");
    await page.goto("/Profile");
    await expect(page.getByRole("heading", { name: "Profile Person" })).toBeVisible();
    await expect(page.getByText("No bio added yet")).toBeVisible();
    await expect(page.getByText("No designation added yet")).toBeVisible();
    await expect(page.getByText("You haven't written any blogs yet.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "profile-empty");

    await page.getByRole("link", { name: "Create Profile" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Profile" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Name")).toHaveValue("Profile Person");
    await expect(dialog.getByLabel("Name")).toHaveAttribute("readonly", "");
    await expect(dialog.getByLabel("Email")).toHaveValue(me.email);
    await expect(dialog.getByLabel("Email")).toHaveAttribute("readonly", "");
    await dialog.getByLabel("Designation").fill("Engineer");
    await dialog.getByRole("button", { name: "Create Profile" }).click();
    await expect(dialog.getByText("All fields are required!")).toBeVisible();
    await expect(dialog.getByLabel("Designation")).toHaveValue("Engineer");
    await screenshots(page, "profile-create-dialog");

    await dialog.getByLabel("Bio").fill("I write about the web at the edge.");
    await dialog.getByRole("button", { name: "Create Profile" }).click();
    await expect(swal(page)).toContainText("Profile Created Successfully!");
    await expect(page.getByText("I write about the web at the edge.")).toBeVisible();
    await expect(page.getByText("Engineer", { exact: true })).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(swal(page)).toBeHidden();
    await screenshots(page, "profile");

    await page.getByRole("link", { name: "Edit Profile" }).click();
    await expect(page).toHaveURL(/\/editProfile\/[^/]+$/);
    await expect(page.getByLabel("Name")).toHaveValue("Profile Person");
    await expect(page.getByLabel("Bio")).toHaveValue("I write about the web at the edge.");
    await expect(page.getByLabel("Designation")).toHaveValue("Engineer");
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "edit-profile");

    // An emptied required field is stopped by the browser (the server answers the same for clients without it).
    await page.getByLabel("Designation").fill("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(/\/editProfile\/[^/]+$/);
    expect(await page.getByLabel("Designation").evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(
      true,
    );
    await page.getByLabel("Name").fill("Profile Person Renamed");
    await page.getByLabel("Designation").fill("Staff Engineer");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(/\/Profile$/);
    await expect(swal(page)).toContainText("Profile updated successfully!");
    await expect(page.getByRole("heading", { name: "Profile Person Renamed" })).toBeVisible();
    await expect(page.getByText("Staff Engineer", { exact: true })).toBeVisible();
  });

  test("the seeded writer's profile lists their posts", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/Profile");
    const posts = page.getByRole("region", { name: "Your Blog Posts" });
    await expect(posts.getByRole("article").first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "profile-with-posts");
  });

  test("without JavaScript: a failed sign-in shows the reason, and the avatar menu signs out after asking", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(ACCOUNTS.writer.email);
    await page.getByLabel("Password").fill("still-not-it");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password." })).toBeVisible();
    // The typed email is kept; the password is not.
    await expect(page.getByLabel("Email")).toHaveValue(ACCOUNTS.writer.email);
    await expect(page.getByLabel("Password")).toHaveValue("");

    await page.getByLabel("Password").fill(ACCOUNTS.writer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText("Login successful")).toBeVisible();
    await page.getByLabel(/^Account menu for/).click();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("heading", { name: "Are you sure?" })).toBeVisible();
    await expect(page.getByText("You will be logged out!")).toBeVisible();
    await page.getByRole("button", { name: "Yes, Logout" }).click();
    await expect(page.getByText("Logged Out!")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
    await context.close();
  });
});
