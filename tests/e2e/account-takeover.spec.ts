import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { linkIn, readMail } from "./mail";
import { VIEWPORTS, screenshots } from "./support";

// WebAuthn refuses IP addresses as relying parties, so this spec browses the same server as localhost.
const BASE = (process.env.E2E_BASE_URL ?? "http://127.0.0.1:8787").replace("127.0.0.1", "localhost");
test.use({ baseURL: BASE });

/** An ADMIN_EMAILS address nobody has an account for yet (scripts/e2e.mjs lists it beside the seeded admin's). */
const OWNER = "owner@edgeblog.test";
const SQUATTER_PASSWORD = "Squatter-Password-1";
const OWNER_PASSWORD = "Owners-Own-Password-2";
const swal = (page: Page) => page.locator(".swal2-popup");

async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
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
}

test.describe("account takeover through an unproven address", () => {
  test("a squatter on an admin's address cannot add a passkey; after the owner's reset they cannot get in", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    // The squatter signs up with the admin's address, which they cannot read.
    const squatter = await (await browser.newContext({ baseURL: BASE })).newPage();
    await squatter.setViewportSize(VIEWPORTS.desktop);
    await virtualAuthenticator(squatter);
    const signup = await squatter.request.post("/api/auth/register", {
      data: { name: "Not The Owner", email: OWNER, password: SQUATTER_PASSWORD },
    });
    expect(signup.status()).toBe(201);
    expect((await squatter.request.get("/api/users")).status()).toBe(403);

    // No passkey while the address is unproven: the page says why, and the API refuses (403).
    await squatter.goto("/settings#passkeys");
    const passkeys = squatter.locator("#passkeys");
    await expect(passkeys).toContainText("Confirm your email address before you add a passkey");
    await expect(passkeys.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
    await screenshots(squatter, "passkeys-unverified");
    const refused = await squatter.request.post("/api/auth/passkeys/register/options");
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe("email-not-verified");

    // A mail scanner opens the verification link: that confirms nothing.
    const since = Date.now() - 60_000;
    const verification = await readMail(OWNER, since);
    const scanner = await browser.newContext({ baseURL: BASE });
    const scan = await scanner.request.get(linkIn(verification.text, "/verify-email").toString());
    expect(scan.status()).toBe(200);
    await scanner.close();
    expect((await (await squatter.request.get("/api/auth/me")).json()).emailVerified).toBe(false);

    // The owner takes the address back by a reset through their own inbox.
    const owner = await (await browser.newContext({ baseURL: BASE })).newPage();
    const resetAt = Date.now();
    await owner.goto("/forgot-password");
    await owner.getByLabel("Email").fill(OWNER);
    await owner.getByRole("button", { name: "Send me a reset link" }).click();
    await expect(owner.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
    const reset = await readMail(OWNER, resetAt);
    await owner.goto(linkIn(reset.text, "/reset-password").toString());
    await owner.getByLabel("New password").fill(OWNER_PASSWORD);
    await owner.getByRole("button", { name: "Set new password" }).click();
    await expect(owner).toHaveURL(/\/login$/);
    await expect(swal(owner)).toContainText("Password changed");
    const signedIn = await owner.request.post("/api/auth/login", { data: { email: OWNER, password: OWNER_PASSWORD } });
    expect(signedIn.status()).toBe(200);
    expect((await owner.request.get("/api/users")).status()).toBe(200);

    // The squatter is out: their session ended, their password is gone, and they hold no passkey.
    expect((await squatter.request.get("/api/users")).status()).toBe(401);
    expect((await squatter.request.get("/api/auth/me")).status()).toBe(401);
    const again = await squatter.request.post("/api/auth/login", {
      data: { email: OWNER, password: SQUATTER_PASSWORD },
    });
    expect(again.status()).toBe(401);
    expect(await (await owner.request.get("/api/auth/passkeys")).json()).toEqual([]);
  });
});
