import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { hashToken } from "#worker/services/accounts/tokens.ts";
import { RESEND_LIMIT } from "#worker/services/accounts/email-verification.ts";
import { db } from "../support/factories";
import { json } from "../support/http";
import { callWith, linkIn, mailbox, sendWith, type Mailbox } from "../support/mail";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
const newEmail = (prefix = "v") => `${prefix}-${unique()}@example.com`;

interface SignedIn {
  token: string;
  user: { _id: string; email: string; role: string; emailVerified: boolean };
}

async function register(box: Mailbox, email: string, workerEnv = box.env()) {
  const res = await sendWith(workerEnv, "POST", "/api/auth/register", {
    name: "Vera",
    email,
    password: "correct horse",
  });
  expect(res.status).toBe(201);
  return json<SignedIn>(res);
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const me = async (box: Mailbox, token: string) =>
  json<SignedIn["user"]>(await callWith(box.env(), "/api/auth/me", { headers: bearer(token) }));
/** The API's verify, by default from the account's own session (the normal case). */
const verifyApi = (box: Mailbox, token: unknown, workerEnv = box.env(), session?: string) =>
  sendWith(workerEnv, "POST", "/api/auth/verify-email", { token }, session ? bearer(session) : {});

describe("email verification", () => {
  it("a password sign-up mails a /verify-email link (absolute, on the site's origin); only the token's hash is stored", async () => {
    const box = mailbox();
    const email = newEmail();
    const { user } = await register(box, email);
    expect(user.emailVerified).toBe(false);

    const [message] = box.to(email);
    expect(message?.subject).toBe("Confirm your email address for Edge Blog");
    const link = linkIn(message, "/verify-email");
    expect(link.origin).toBe("https://blog.test");
    const token = link.searchParams.get("token")!;
    expect(message?.html).toContain(link.href.replace(/&/g, "&amp;"));

    const rows = await db().select().from(schema.accountTokens).where(eq(schema.accountTokens.userId, user._id));
    expect(rows.map((r) => r.tokenHash)).toEqual([await hashToken(token)]);
    expect(rows[0]?.kind).toBe("verify-email");
    expect(rows[0]!.expiresAt - rows[0]!.createdAt).toBeGreaterThan(24 * 60 * 60 * 1000 - 5_000);
    expect(rows[0]!.expiresAt - Date.now()).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
    expect(JSON.stringify(await db().select().from(schema.accountTokens))).not.toContain(token);
    // Sent: the outbox no longer holds the link either.
    const outbox = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, email));
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ kind: "verify-email", text: "", html: "" });
    expect(outbox[0]?.sentAt).not.toBeNull();
  });

  it("links point at SITE_URL when it is set, whatever Host the request came to", async () => {
    const box = mailbox();
    const email = newEmail();
    await register(box, email, box.env({ SITE_URL: "https://www.example.org/" }));
    expect(linkIn(box.to(email)[0], "/verify-email").origin).toBe("https://www.example.org");
  });

  it("opening the link verifies the address once; GET /api/auth/me carries emailVerified", async () => {
    const box = mailbox();
    const email = newEmail();
    const { token: session } = await register(box, email);
    const token = linkIn(box.to(email)[0], "/verify-email").searchParams.get("token");

    const res = await verifyApi(box, token, undefined, session);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      success: true,
      emailVerified: true,
      alreadyVerified: false,
      accountReset: false,
    });
    expect(await me(box, session)).toMatchObject({ email, emailVerified: true });

    const again = await verifyApi(box, token, undefined, session);
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ error: { code: "token-used" } });
  });

  it("opening /verify-email?token=… verifies nothing (link scanners follow links); its button, a form post, does", async () => {
    const box = mailbox();
    const email = newEmail();
    const { token: session } = await register(box, email);
    const link = linkIn(box.to(email)[0], "/verify-email");
    const path = `${link.pathname}${link.search}`;
    const asOwner = { Accept: "text/html", ...bearer(session) };
    const page = await callWith(box.env(), path, { headers: asOwner });
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.headers.get("Referrer-Policy")).toBe("same-origin");
    const html = await page.text();
    expect(html).toContain("Confirm my email address");
    expect(html).toContain('name="intent" value="verify"');
    expect(html).not.toContain("Email address confirmed");
    expect(html).not.toContain("This browser is not signed in");
    // Opened again, as a scanner and then the person would: still nothing confirmed, the link still good.
    await callWith(box.env(), path, { headers: { Accept: "text/html" } });
    expect(await me(box, session)).toMatchObject({ emailVerified: false });

    // The button: a document post of the form, as a browser without JavaScript sends it.
    const form = new FormData();
    form.set("intent", "verify");
    form.set("token", link.searchParams.get("token")!);
    const posted = await callWith(box.env(), path, { method: "POST", body: form, headers: asOwner });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("Email address confirmed");
    expect(await me(box, session)).toMatchObject({ emailVerified: true });

    const bad = await callWith(box.env(), "/verify-email?token=nope", { headers: { Accept: "text/html" } });
    expect(bad.status).toBe(200);
    expect(await bad.text()).toContain("This link is not valid");
    const replayed = await callWith(box.env(), path, { method: "POST", body: form, headers: { Accept: "text/html" } });
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain("This link has already been used");
  });

  it("refuses expired, forged, altered and malformed tokens", async () => {
    const box = mailbox();
    const email = newEmail();
    const { user, token: session } = await register(box, email);
    const token = linkIn(box.to(email)[0], "/verify-email").searchParams.get("token")!;

    const altered = `${token.slice(0, 10)}${token[10] === "a" ? "b" : "a"}${token.slice(11)}`;
    for (const bad of [altered, "A".repeat(43), `${token}=`, "", 12, null]) {
      const res = await verifyApi(box, bad);
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: { code: "token-invalid" } });
    }

    // A link issued 24 hours ago has expired.
    const services = createServices(box.env());
    const old = await services.accountTokens.issue(
      "verify-email",
      user._id,
      { email },
      Date.now() - 24 * 60 * 60 * 1000,
    );
    await db().batch(old.statements);
    const expired = await verifyApi(box, old.token);
    expect(expired.status).toBe(400);
    expect(await json(expired)).toMatchObject({ error: { code: "token-expired" } });
    expect(await me(box, session)).toMatchObject({ emailVerified: false });
  });

  it("a link for an earlier address of the account does not verify the new one", async () => {
    const box = mailbox();
    const email = newEmail();
    const { user, token: session } = await register(box, email);
    const token = linkIn(box.to(email)[0], "/verify-email").searchParams.get("token");
    await db()
      .update(schema.users)
      .set({ email: newEmail("moved") })
      .where(eq(schema.users.id, user._id));
    expect((await verifyApi(box, token)).status).toBe(400);
    expect(await me(box, session)).toMatchObject({ emailVerified: false });
  });

  it("an ADMIN_EMAILS address is not admin (403 on admin calls) until its link is opened, then it is", async () => {
    const box = mailbox();
    const boss = newEmail("boss");
    const adminEnv = box.env({ ADMIN_EMAILS: `someone@example.com, ${boss.toUpperCase()}` });
    const { token: session, user } = await register(box, boss, adminEnv);
    expect(user).toMatchObject({ role: "user", emailVerified: false });
    const asBoss = { headers: bearer(session) };
    expect((await callWith(adminEnv, "/api/users", asBoss)).status).toBe(403);
    expect(await json(await callWith(adminEnv, `/api/users/admin/${encodeURIComponent(boss)}`, asBoss))).toEqual({
      admin: false,
    });
    expect((await callWith(adminEnv, "/dashboard/manageUsers", { ...asBoss, redirect: "manual" })).status).toBe(403);

    const token = linkIn(box.to(boss)[0], "/verify-email").searchParams.get("token");
    expect((await verifyApi(box, token, adminEnv, session)).status).toBe(200);
    expect(await me(box, session)).toMatchObject({ role: "admin", emailVerified: true });
    expect((await callWith(adminEnv, "/api/users", asBoss)).status).toBe(200);
  });

  it("resend: signed in only, a new link replaces the old one, at most RESEND_LIMIT.perAccount an hour", async () => {
    const box = mailbox();
    const email = newEmail();
    const { token: session } = await register(box, email);
    const first = linkIn(box.to(email)[0], "/verify-email").searchParams.get("token");

    expect((await sendWith(box.env(), "POST", "/api/auth/verify-email/resend", {})).status).toBe(401);

    const res = await sendWith(box.env(), "POST", "/api/auth/verify-email/resend", {}, bearer(session));
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ success: true, delivered: true });
    expect(box.to(email)).toHaveLength(2);
    const second = linkIn(box.to(email)[1], "/verify-email").searchParams.get("token");
    expect(second).not.toBe(first);
    expect(await json(await verifyApi(box, first))).toMatchObject({ error: { code: "token-invalid" } });

    for (let i = 1; i < RESEND_LIMIT.perAccount; i++)
      expect((await sendWith(box.env(), "POST", "/api/auth/verify-email/resend", {}, bearer(session))).status).toBe(
        200,
      );
    const limited = await sendWith(box.env(), "POST", "/api/auth/verify-email/resend", {}, bearer(session));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(box.to(email)).toHaveLength(1 + RESEND_LIMIT.perAccount);

    // The newest link still works; after it, a resend is a 409.
    const newest = linkIn(box.to(email).at(-1), "/verify-email").searchParams.get("token");
    expect((await verifyApi(box, newest, undefined, session)).status).toBe(200);
    const done = await sendWith(box.env(), "POST", "/api/auth/verify-email/resend", {}, bearer(session));
    expect(done.status).toBe(409);
    expect(await json(done)).toMatchObject({ error: { code: "already-verified" } });
  });

  it("resend is limited per client address too", async () => {
    const box = mailbox();
    const address = `203.0.113.${counter++ % 250}`;
    let last = 0;
    for (let i = 0; i <= RESEND_LIMIT.perAddress; i++) {
      const { token } = await register(box, newEmail(), box.env());
      const res = await sendWith(
        box.env(),
        "POST",
        "/api/auth/verify-email/resend",
        {},
        {
          ...bearer(token),
          "CF-Connecting-IP": address,
        },
      );
      last = res.status;
    }
    expect(last).toBe(429);
  });

  it("a sign-up succeeds while mail is down; the message waits in the outbox", async () => {
    const box = mailbox();
    box.fail("Email Service is down");
    const email = newEmail();
    const { user } = await register(box, email);
    expect(user.emailVerified).toBe(false);
    const [row] = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, email));
    expect(row).toMatchObject({ kind: "verify-email", attempts: 1, lastError: "Email Service is down", sentAt: null });
  });

  it("the banner offers a new link to an unverified account on every page, and goes once verified", async () => {
    const box = mailbox();
    const email = newEmail();
    const { token: session } = await register(box, email);
    const page = (path: string) =>
      callWith(box.env(), path, { headers: { Accept: "text/html", Cookie: `__Host-session=${session}` } });
    const before = await (await page("/allBlogs")).text();
    expect(before).toContain("Please confirm your email address.");
    expect(before).toContain('action="/verify-email"');

    // The banner's form, as a browser without JavaScript posts it.
    const form = new FormData();
    form.set("redirectTo", "/allBlogs");
    const resent = await callWith(box.env(), "/verify-email", {
      method: "POST",
      body: form,
      headers: { Accept: "text/html", Cookie: `__Host-session=${session}` },
    });
    expect(resent.status).toBe(302);
    expect(resent.headers.get("Location")).toBe("/allBlogs");
    expect(box.to(email)).toHaveLength(2);

    const token = linkIn(box.to(email)[1], "/verify-email").searchParams.get("token");
    await verifyApi(box, token, undefined, session);
    expect(await (await page("/allBlogs")).text()).not.toContain("Please confirm your email address.");
    // Nor does a signed-in, verified demo-like account ever see it; a visitor neither.
    expect(await (await callWith(env, "/allBlogs", { headers: { Accept: "text/html" } })).text()).not.toContain(
      "Please confirm your email address.",
    );
  });
});

describe("verifying from a browser not signed in to the account", () => {
  it("the owner confirming a squatter's sign-up on an ADMIN_EMAILS address: the account starts afresh, the squatter is out", async () => {
    const box = mailbox();
    const boss = newEmail("owner");
    const adminEnv = box.env({ ADMIN_EMAILS: boss });
    const { token: squatterSession, user } = await register(box, boss, adminEnv);
    const link = linkIn(box.to(boss)[0], "/verify-email");
    // What the squatter holds: a session, the password, a passkey from before the rule, a pending email change.
    await db()
      .insert(schema.passkeys)
      .values({ id: `legacy-${unique()}`, userId: user._id, name: "Old", publicKey: "x" });
    const away = newEmail("away");
    const change = { newEmail: away, password: "correct horse" };
    expect((await sendWith(adminEnv, "POST", "/api/auth/change-email", change, bearer(squatterSession))).status).toBe(
      202,
    );
    const moveToken = linkIn(box.to(away)[0], "/confirm-email").searchParams.get("token");

    // The owner's browser: not signed in. The page says what confirming here does before anything happens.
    const path = `${link.pathname}${link.search}`;
    const page = await (await callWith(adminEnv, path, { headers: { Accept: "text/html" } })).text();
    expect(page).toContain("This browser is not signed in to the account.");
    expect(page).toContain(`/login?redirectTo=${encodeURIComponent(path)}`.replace(/&/g, "&amp;"));
    const form = new FormData();
    form.set("intent", "verify");
    form.set("token", link.searchParams.get("token")!);
    const posted = await callWith(adminEnv, path, { method: "POST", body: form, headers: { Accept: "text/html" } });
    expect(posted.status).toBe(200);
    const html = await posted.text();
    expect(html).toContain("we signed it out on every device and removed its password and passkeys");
    expect(html).toContain('href="/forgot-password"');

    const [row] = await db().select().from(schema.users).where(eq(schema.users.id, user._id));
    expect(row).toMatchObject({ role: "admin", passwordHash: null, googleSub: null });
    expect(row!.emailVerifiedAt).not.toBeNull();
    expect((await callWith(adminEnv, "/api/auth/me", { headers: bearer(squatterSession) })).status).toBe(401);
    const login = await sendWith(adminEnv, "POST", "/api/auth/login", { email: boss, password: "correct horse" });
    expect(login.status).toBe(401);
    expect(await db().select().from(schema.passkeys).where(eq(schema.passkeys.userId, user._id))).toHaveLength(0);
    // The pending move to the squatter's own address is void: the admin account cannot be carried off.
    const moved = await sendWith(adminEnv, "POST", "/api/auth/confirm-email-change", { token: moveToken });
    expect(moved.status).toBe(400);
    expect((await db().select().from(schema.users).where(eq(schema.users.id, user._id)))[0]?.email).toBe(boss);
  });

  it("the API says so too (accountReset), and a verification by the account's own session resets nothing", async () => {
    const box = mailbox();
    const email = newEmail();
    const { token: session } = await register(box, email);
    const token = linkIn(box.to(email)[0], "/verify-email").searchParams.get("token");
    const res = await verifyApi(box, token);
    expect(await json(res)).toEqual({ success: true, emailVerified: true, alreadyVerified: false, accountReset: true });
    expect((await callWith(box.env(), "/api/auth/me", { headers: bearer(session) })).status).toBe(401);
  });
});
