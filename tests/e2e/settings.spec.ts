import type { Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { readMail as readLocalMail, linkIn } from "./mail";
import { ACCOUNTS, SCREENSHOT_DIR, VIEWPORTS, screenshots, signIn } from "./support";

const readMail = async (needle: string, since: number) => (await readLocalMail(needle, since)).text;

// WebAuthn refuses IP addresses as relying parties, so this spec browses the same server as localhost.
const BASE = (process.env.E2E_BASE_URL ?? "http://127.0.0.1:8787").replace("127.0.0.1", "localhost");
test.use({ baseURL: BASE });

const PASSWORD = "Sunny-Garden-42";
let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;
const swal = (page: Page) => page.locator(".swal2-popup");

async function registerViaApi(page: Page, name: string) {
  const email = uniqueEmail("settings");
  const res = await page.request.post("/api/auth/register", { data: { name, email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  return { name, email };
}

test.describe("settings", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  test("a visitor is sent to sign in; the page has every section; screenshots at 375 and 1280", async ({ page }) => {
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);

    await registerViaApi(page, "Screenshot Person");
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    for (const name of [
      "Password",
      "Email address",
      "Passkeys",
      "Signed-in sessions",
      "Download your data",
      "Delete account",
    ])
      await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
    await expect(page.getByText("This device")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, "settings");
    mkdirSync("docs/screenshots", { recursive: true });
    for (const size of Object.values(VIEWPORTS))
      copyFileSync(
        path.join(SCREENSHOT_DIR, `settings-${size.width}.png`),
        `docs/screenshots/settings-${size.width}.png`,
      );

    // The dark theme (the system's setting) at desktop width, for a look.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.screenshot({ path: "docs/screenshots/settings-dark-1280.png", fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });

    // Reached from the avatar menu.
    await page.goto("/");
    await page.getByRole("button", { name: "Account menu for Screenshot Person" }).click();
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL(/\/settings$/);
  });

  test("change email: the link mailed to the new address confirms it", async ({ page }) => {
    await registerViaApi(page, "Mover");
    const next = uniqueEmail("moved");
    await page.goto("/settings");
    const since = Date.now();
    const form = page.locator("#email");
    await form.getByLabel("New email address").fill(next);
    await form.getByLabel("Current password").fill(PASSWORD);
    await form.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(swal(page)).toContainText("Check your new inbox");

    const mail = await readMail(next, since);
    const link = linkIn(mail, "/confirm-email");
    // Opening the link changes nothing (a mail scanner opens it too): the page names the change and asks.
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole("heading", { name: "Confirm your new email address" })).toBeVisible();
    await expect(page.getByText(next)).toBeVisible();
    expect((await (await page.request.get("/api/auth/me")).json()).email).not.toBe(next);
    await page.getByRole("button", { name: "Confirm my new email address" }).click();
    await expect(page).toHaveURL(/\/settings#email$/);
    await expect(swal(page)).toContainText("Email address changed");
    await expect(page.locator("#email")).toContainText(next);
    const me = await page.request.get("/api/auth/me");
    expect((await me.json()).email).toBe(next);
  });

  test("download my data: a zip with my posts as Markdown and my profile", async ({ page }) => {
    await signIn(page, ACCOUNTS.writer);
    await page.goto("/settings");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download my data (.zip)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const file = await download.path();
    const files = unzipSync(new Uint8Array(readFileSync(file)));
    const names = Object.keys(files);
    const posts = names.filter((n) => n.startsWith("posts/") && n.endsWith(".md"));
    expect(posts.length).toBeGreaterThan(0);
    expect(strFromU8(files[posts[0]!]!)).toMatch(/^---\ntitle: ".+"\n/);
    expect(JSON.parse(strFromU8(files["profile.json"]!)).account.email).toBe(ACCOUNTS.writer.email);
    for (const json of ["comments.json", "likes.json", "saves.json"])
      expect(Array.isArray(JSON.parse(strFromU8(files[json]!)))).toBe(true);
  });

  test("delete the account: asks, deletes, signs out, and the email can sign up again", async ({ page }) => {
    const who = await registerViaApi(page, "Leaver");
    await page.goto("/settings#delete-account");
    const section = page.locator("#delete-account");
    await section.getByLabel("Your password").fill(PASSWORD);
    await section.getByLabel(/I understand/).check();
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(swal(page)).toContainText("Are you sure?");
    await swal(page).getByRole("button", { name: "Yes, delete it!" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(swal(page)).toContainText("Account deleted");
    expect((await page.request.get("/api/auth/me")).status()).toBe(401);
    const login = await page.request.post("/api/auth/login", { data: { email: who.email, password: PASSWORD } });
    expect(login.status()).toBe(401);
    const again = await page.request.post("/api/auth/register", {
      data: { name: "Back Again", email: who.email, password: PASSWORD },
    });
    expect(again.status()).toBe(201);
  });

  test("a passkey added in settings signs in on /login", async ({ page, context }) => {
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const since = Date.now();
    const who = await registerViaApi(page, "Passkey Person");
    // A passkey needs a confirmed address: the link from the mail, then its button.
    await page.goto(linkIn(await readMail(who.email, since), "/verify-email").toString());
    await page.getByRole("button", { name: "Confirm my email address" }).click();
    await expect(page.getByRole("heading", { name: "Email address confirmed" })).toBeVisible();
    await page.goto("/settings#passkeys");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(swal(page)).toContainText("Passkey added");
    await expect(page.locator("#passkeys li")).toHaveCount(1);

    await context.clearCookies();
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(swal(page)).toContainText("Login successful");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Account menu for Passkey Person" })).toBeVisible();
    expect((await (await page.request.get("/api/auth/me")).json()).email).toBe(who.email);
  });
});
