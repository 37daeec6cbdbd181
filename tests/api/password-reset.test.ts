import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { hashToken } from "#worker/services/accounts/tokens.ts";
import { FORGOT_LIMIT, RESET_TEXTS } from "#worker/services/accounts/password-reset.ts";
import { db, makeUser } from "../support/factories";
import { json } from "../support/http";
import { callWith, linkIn, mailbox, sendWith, type Mailbox } from "../support/mail";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
const newEmail = (prefix = "r") => `${prefix}-${unique()}@example.com`;
const clientAddress = () => `198.51.100.${counter++ % 250}`;

async function accountWithPassword(password = "old password 1") {
  return makeUser({ email: newEmail(), passwordHash: await hashPassword(password) });
}

const forgot = (box: Mailbox, email: unknown, headers: Record<string, string> = {}) =>
  sendWith(
    box.env(),
    "POST",
    "/api/auth/forgot-password",
    { email },
    { "CF-Connecting-IP": clientAddress(), ...headers },
  );
const reset = (box: Mailbox, token: unknown, password: unknown) =>
  sendWith(box.env(), "POST", "/api/auth/reset-password", { token, password });
const login = (box: Mailbox, email: string, password: string) =>
  sendWith(box.env(), "POST", "/api/auth/login", { email, password });
const resetToken = (box: Mailbox, email: string, index = 0) =>
  linkIn(box.to(email)[index], "/reset-password").searchParams.get("token")!;

describe("POST /api/auth/forgot-password", () => {
  it("answers the same status and body whether or not the account exists; mail goes only to the account", async () => {
    const box = mailbox();
    const user = await accountWithPassword();
    const known = await forgot(box, user.email.toUpperCase());
    const nobody = newEmail("nobody");
    const unknown = await forgot(box, nobody);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    const body = await known.text();
    expect(await unknown.text()).toBe(body);
    expect(JSON.parse(body)).toEqual({ success: true, message: RESET_TEXTS.requested });

    expect(box.to(nobody)).toHaveLength(0);
    expect(box.sent.filter((m) => m.to === nobody)).toHaveLength(0);
    const [message] = box.to(user.email);
    expect(message?.subject).toBe("Reset your Edge Blog password");
    const link = linkIn(message, "/reset-password");
    expect(link.origin).toBe("https://blog.test");
    // Stored hashed only.
    const [row] = await db().select().from(schema.accountTokens).where(eq(schema.accountTokens.userId, user.id));
    expect(row?.tokenHash).toBe(await hashToken(link.searchParams.get("token")!));
    expect(row!.expiresAt - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it("refuses a malformed address with 400 (the same for everyone)", async () => {
    const res = await forgot(mailbox(), "not an email");
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: { fields: { email: expect.any(String) } } });
  });

  it("mails one inbox at most FORGOT_LIMIT.perEmail times an hour, answering as always", async () => {
    const box = mailbox();
    const user = await accountWithPassword();
    for (let i = 0; i < FORGOT_LIMIT.perEmail + 2; i++) {
      const res = await forgot(box, user.email);
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ success: true, message: RESET_TEXTS.requested });
    }
    expect(box.to(user.email)).toHaveLength(FORGOT_LIMIT.perEmail);
  });

  it("limits one client to FORGOT_LIMIT.perAddress requests an hour (429), whichever addresses it tries", async () => {
    const box = mailbox();
    const address = `192.0.2.${counter++ % 250}`;
    const statuses: number[] = [];
    for (let i = 0; i <= FORGOT_LIMIT.perAddress; i++)
      statuses.push((await forgot(box, newEmail("probe"), { "CF-Connecting-IP": address })).status);
    expect(statuses.slice(0, FORGOT_LIMIT.perAddress).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("POST /api/auth/reset-password", () => {
  it("sets the new password, ends every session, tells the owner, and works once", async () => {
    const box = mailbox();
    const user = await accountWithPassword("old password 1");
    const services = createServices(box.env());
    const sessions = [await services.sessions.start(user), await services.sessions.start(user)];
    await forgot(box, user.email);
    const token = resetToken(box, user.email);

    const res = await reset(box, token, "brand new password");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true, message: RESET_TEXTS.done });

    for (const { token: session } of sessions)
      expect(
        (await callWith(box.env(), "/api/auth/me", { headers: { Authorization: `Bearer ${session}` } })).status,
      ).toBe(401);
    expect((await login(box, user.email, "old password 1")).status).toBe(401);
    expect((await login(box, user.email, "brand new password")).status).toBe(200);

    const notice = box.to(user.email)[1];
    expect(notice?.subject).toBe("Your Edge Blog password was changed");
    expect(linkIn(notice, "/login").origin).toBe("https://blog.test");

    // The link reached the inbox: the address counts as verified now.
    const row = await db().query.users.findFirst({ where: eq(schema.users.id, user.id) });
    expect(row?.emailVerifiedAt).not.toBeNull();

    const again = await reset(box, token, "another password 2");
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ error: { code: "token-used" } });
    expect((await login(box, user.email, "brand new password")).status).toBe(200);
  });

  it("refuses an expired token (one hour), and forged, altered or malformed ones", async () => {
    const box = mailbox();
    const user = await accountWithPassword("old password 1");
    const services = createServices(box.env());
    const old = await services.accountTokens.issue(
      "password-reset",
      user.id,
      { email: user.email },
      Date.now() - 60 * 60 * 1000,
    );
    await db().batch(old.statements);
    const expired = await reset(box, old.token, "brand new password");
    expect(expired.status).toBe(400);
    expect(await json(expired)).toMatchObject({ error: { code: "token-expired" } });

    await forgot(box, user.email);
    const token = resetToken(box, user.email);
    const altered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [
      altered,
      "x".repeat(43),
      token.toUpperCase() === token ? `${token}!` : token.toUpperCase(),
      "",
      null,
      7,
    ]) {
      const res = await reset(box, bad, "brand new password");
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: { code: "token-invalid" } });
    }
    expect((await login(box, user.email, "old password 1")).status).toBe(200);
  });

  it("a password that breaks the policy is refused and leaves the link usable", async () => {
    const box = mailbox();
    const user = await accountWithPassword("old password 1");
    await forgot(box, user.email);
    const token = resetToken(box, user.email);
    const weak = await reset(box, token, "1234");
    expect(weak.status).toBe(400);
    expect(await json(weak)).toMatchObject({ error: { fields: { password: expect.any(String) } } });
    expect((await reset(box, token, "a good password")).status).toBe(200);
  });

  it("a Google-only account (no password) can set one this way", async () => {
    const box = mailbox();
    const user = await makeUser({ email: newEmail("g"), googleSub: `sub-${unique()}`, emailVerifiedAt: Date.now() });
    expect((await login(box, user.email, "my first password")).status).toBe(401);
    await forgot(box, user.email);
    expect((await reset(box, resetToken(box, user.email), "my first password")).status).toBe(200);
    expect((await login(box, user.email, "my first password")).status).toBe(200);
  });

  it("a newer link voids the older one", async () => {
    const box = mailbox();
    const user = await accountWithPassword();
    await forgot(box, user.email);
    await forgot(box, user.email);
    const [first, second] = [resetToken(box, user.email, 0), resetToken(box, user.email, 1)];
    expect(await json(await reset(box, first, "brand new password"))).toMatchObject({
      error: { code: "token-invalid" },
    });
    expect((await reset(box, second, "brand new password")).status).toBe(200);
  });

  it("a reset while mail is down still succeeds; the notice waits in the outbox", async () => {
    const box = mailbox();
    const user = await accountWithPassword();
    await forgot(box, user.email);
    const token = resetToken(box, user.email);
    box.fail("Email Service is down");
    expect((await reset(box, token, "brand new password")).status).toBe(200);
    const waiting = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, user.email));
    expect(waiting.find((m) => m.kind === "password-changed")).toMatchObject({ attempts: 1, sentAt: null });
  });
});

describe("the pages, without JavaScript", () => {
  const html = { Accept: "text/html" };
  const formPost = (box: Mailbox, path: string, fields: Record<string, string>) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return callWith(box.env(), path, { method: "POST", body, headers: html });
  };

  it("/login links to /forgot-password", async () => {
    const page = await callWith(mailbox().env(), "/login", { headers: html });
    expect(await page.text()).toContain('href="/forgot-password"');
  });

  it("/forgot-password answers every address the same way", async () => {
    const box = mailbox();
    const user = await accountWithPassword();
    const form = await callWith(box.env(), "/forgot-password", { headers: html });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="email"');
    const known = await formPost(box, "/forgot-password", { email: user.email });
    const unknown = await formPost(box, "/forgot-password", { email: newEmail("nobody") });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    for (const text of [await known.text(), await unknown.text()]) expect(text).toContain("Check your inbox");
    expect(box.to(user.email)).toHaveLength(1);
  });

  it("/reset-password shows its form for a good link, says why for a bad one, and sets the password", async () => {
    const box = mailbox();
    const user = await accountWithPassword("old password 1");
    await forgot(box, user.email);
    const link = linkIn(box.to(user.email)[0], "/reset-password");

    const page = await callWith(box.env(), `${link.pathname}${link.search}`, { headers: html });
    expect(page.status).toBe(200);
    expect(page.headers.get("Referrer-Policy")).toBe("same-origin");
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    const text = await page.text();
    expect(text).toContain("Choose a new password");
    expect(text).toContain('name="password"');

    const bad = await callWith(box.env(), "/reset-password?token=forged", { headers: html });
    expect(await bad.text()).toContain("This link cannot be used");

    const done = await formPost(box, "/reset-password", {
      token: link.searchParams.get("token")!,
      password: "brand new password",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/login");
    expect(done.headers.getSetCookie().some((c) => /^__Host-session=[^;]*;.*Max-Age=0/i.test(c))).toBe(true);
    expect((await login(box, user.email, "brand new password")).status).toBe(200);
  });
});
