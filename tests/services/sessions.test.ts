import { eq } from "drizzle-orm";
import { SignJWT, UnsecuredJWT, decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { hashPassword } from "#worker/auth/passwords.ts";
import { SESSION_IDLE_SECONDS } from "#worker/auth/tokens.ts";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { PublicUser } from "#worker/services/accounts/model.ts";
import { db, makeUser, sessionFor } from "../support/factories";
import { call, json } from "../support/http";

const SECRET = "test-session-secret-0123456789abcdef0123456789";
const me = (headers: Record<string, string>) => call("/api/auth/me", { headers });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const b64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** A session row plus a token for it signed by hand, so each test changes exactly one thing. */
async function handMadeToken(opts: { exp: number; secret?: string }) {
  const user = await makeUser();
  const sid = newId(24);
  await db()
    .insert(schema.sessions)
    .values({ id: sid, userId: user.id, expiresAt: Date.now() + 3_600_000 });
  const token = await new SignJWT({ sid, email: user.email })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(user.id)
    .setIssuer("edge-blog")
    .setAudience("edge-blog:session")
    .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
    .setExpirationTime(opts.exp)
    .sign(new TextEncoder().encode(opts.secret ?? SECRET));
  return { user, sid, token };
}

async function expectSignedOut(res: Response) {
  expect(res.status).toBe(401);
  expect(await json(res)).toEqual({ error: { code: "unauthorized", message: "You need to sign in first." } });
}

describe("sessions, seen through GET /api/auth/me", () => {
  it("a valid Bearer token answers the user, without any hash", async () => {
    const user = await makeUser({ name: "Valid", passwordHash: "pbkdf2-sha256$1$AAAA$AAAA" });
    const res = await me(bearer(await sessionFor(user)));
    expect(res.status).toBe(200);
    expect(await json<PublicUser>(res)).toEqual({
      _id: user.id,
      name: "Valid",
      email: user.email,
      role: "user",
      photoURL: null,
      emailVerified: true,
    });
  });

  it("the session cookie works too", async () => {
    const user = await makeUser();
    const res = await me({ Cookie: `theme=dark; __Host-session=${await sessionFor(user)}` });
    expect(res.status).toBe(200);
    expect((await json<PublicUser>(res))._id).toBe(user.id);
  });

  it("no token, or garbage, is signed out", async () => {
    await expectSignedOut(await me({}));
    await expectSignedOut(await me(bearer("not-a-jwt")));
    await expectSignedOut(await me({ Cookie: "__Host-session=a.b.c" }));
  });

  it("a hand-made token with a future expiry works (the control for the cases below)", async () => {
    const { user, token } = await handMadeToken({ exp: Math.floor(Date.now() / 1000) + 600 });
    const res = await me(bearer(token));
    expect(res.status).toBe(200);
    expect((await json<PublicUser>(res))._id).toBe(user.id);
  });

  it("an expired token is signed out even though its session row still exists", async () => {
    const { sid, token } = await handMadeToken({ exp: Math.floor(Date.now() / 1000) - 60 });
    expect(await db().query.sessions.findFirst({ where: eq(schema.sessions.id, sid) })).toBeTruthy();
    await expectSignedOut(await me(bearer(token)));
  });

  it("a token signed with another key is signed out", async () => {
    const { token } = await handMadeToken({
      exp: Math.floor(Date.now() / 1000) + 600,
      secret: "another-secret-another-secret-another-secret",
    });
    await expectSignedOut(await me(bearer(token)));
  });

  it("a tampered payload (same signature) is signed out", async () => {
    const user = await makeUser();
    const token = await sessionFor(user);
    const [header, , signature] = token.split(".");
    const claims = decodeJwt(token);
    // Still the user's own live session: only a signature check can catch the longer expiry.
    const forged = `${header}.${b64url({ ...claims, exp: claims.exp! + 365 * 86400 })}.${signature}`;
    await expectSignedOut(await me(bearer(forged)));
    const victim = await makeUser({ role: "admin" });
    await expectSignedOut(
      await me(bearer(`${header}.${b64url({ ...claims, sub: victim.id, email: victim.email })}.${signature}`)),
    );
  });

  it("an unsigned (alg: none) token is signed out", async () => {
    const user = await makeUser();
    const real = decodeJwt(await sessionFor(user));
    const unsigned = new UnsecuredJWT({ sid: real.sid, email: user.email })
      .setSubject(user.id)
      .setIssuer("edge-blog")
      .setAudience("edge-blog:session")
      .setIssuedAt()
      .setExpirationTime("1h")
      .encode();
    expect(JSON.parse(atob(unsigned.split(".")[0]!))).toMatchObject({ alg: "none" });
    await expectSignedOut(await me(bearer(unsigned)));
  });

  it("a deleted user's token stops working", async () => {
    const user = await makeUser();
    const token = await sessionFor(user);
    expect((await me(bearer(token))).status).toBe(200);
    await db().delete(schema.users).where(eq(schema.users.id, user.id));
    await expectSignedOut(await me(bearer(token)));
  });

  it("a token stops working after logout, and only that session ends", async () => {
    const user = await makeUser();
    const token = await sessionFor(user);
    const other = await sessionFor(user);
    const out = await call("/api/auth/logout", { method: "POST", headers: bearer(token) });
    expect(out.status).toBe(200);
    await expectSignedOut(await me(bearer(token)));
    await expectSignedOut(await me({ Cookie: `__Host-session=${token}` }));
    expect((await me(bearer(other))).status).toBe(200);
  });
});

describe("session lifetimes, minted tokens and the session service", () => {
  const services = () => createServices(env);
  const mint = (headers: Record<string, string>, email: string) =>
    call("/api/jwt", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ email }),
    });

  it("a token minted by POST /api/jwt dies with the session it came from (sign-out answers 401 to it)", async () => {
    const user = await makeUser();
    const token = await sessionFor(user);
    const res = await mint({ Cookie: `__Host-session=${token}` }, user.email);
    expect(res.status).toBe(200);
    const minted = (await json<{ token: string }>(res)).token;
    expect(minted).not.toBe(token);
    expect((await me(bearer(minted))).status).toBe(200);
    // Re-minting from the minted token names the same session again: no chain outlives it.
    const again = (await json<{ token: string }>(await mint(bearer(minted), user.email))).token;
    expect(decodeJwt(again).sid).toBe(decodeJwt(token).sid);
    expect(decodeJwt(again).exp!).toBeLessThanOrEqual(decodeJwt(token).exp! + 1);

    const out = await call("/api/auth/logout", { method: "POST", headers: { Cookie: `__Host-session=${token}` } });
    expect(out.status).toBe(200);
    await expectSignedOut(await me(bearer(minted)));
    await expectSignedOut(await me(bearer(again)));
    // And nothing can be minted from a dead session.
    expect((await mint(bearer(minted), user.email)).status).toBe(401);
  });

  it("a session unused past the idle timeout is over; one past its absolute end is over however active", async () => {
    const user = await makeUser();
    const idle = await sessionFor(user);
    await db()
      .update(schema.sessions)
      .set({ lastSeenAt: Date.now() - SESSION_IDLE_SECONDS * 1000 - 1000 })
      .where(eq(schema.sessions.id, decodeJwt(idle).sid as string));
    await expectSignedOut(await me(bearer(idle)));

    const old = await sessionFor(user);
    await db()
      .update(schema.sessions)
      .set({ expiresAt: Date.now() - 1000, lastSeenAt: Date.now() })
      .where(eq(schema.sessions.id, decodeJwt(old).sid as string));
    await expectSignedOut(await me(bearer(old)));

    // The sweep removes both.
    expect(await services().sessions.sweepExpired()).toBeGreaterThanOrEqual(2);
  });

  it("last_seen_at is written at most once a minute", async () => {
    const user = await makeUser();
    const token = await sessionFor(user);
    const sid = decodeJwt(token).sid as string;
    const seen = async () => (await db().query.sessions.findFirst({ where: eq(schema.sessions.id, sid) }))!.lastSeenAt!;
    const recent = Date.now() - 30_000;
    await db().update(schema.sessions).set({ lastSeenAt: recent }).where(eq(schema.sessions.id, sid));
    expect((await me(bearer(token))).status).toBe(200);
    expect(await seen()).toBe(recent);
    const stale = Date.now() - 61_000;
    await db().update(schema.sessions).set({ lastSeenAt: stale }).where(eq(schema.sessions.id, sid));
    expect((await me(bearer(token))).status).toBe(200);
    expect(await seen()).toBeGreaterThan(stale + 60_000);
  });

  it("endAll, endAllExcept and listForUser (the settings page's calls)", async () => {
    const user = await makeUser();
    const stranger = await makeUser();
    const s = services().sessions;
    const a = await s.start(user, { userAgent: "Firefox on Linux", country: "NL", city: "Amsterdam", colo: "AMS" });
    const b = await s.start(user, { userAgent: "x".repeat(2000) });
    const c = await s.start(user);
    const theirs = await s.start(stranger);

    const listed = await s.listForUser(user.id);
    expect(listed.map((row) => row.id).sort()).toEqual([a.sessionId, b.sessionId, c.sessionId].sort());
    const first = listed.find((row) => row.id === a.sessionId)!;
    expect(first).toMatchObject({ userAgent: "Firefox on Linux", country: "NL", city: "Amsterdam", colo: "AMS" });
    expect(first).not.toHaveProperty("token");
    expect(listed.find((row) => row.id === b.sessionId)!.userAgent!.length).toBeLessThanOrEqual(256);

    expect(await s.endAllExcept(user.id, a.sessionId)).toBe(2);
    expect((await me(bearer(a.token))).status).toBe(200);
    await expectSignedOut(await me(bearer(b.token)));
    await expectSignedOut(await me(bearer(c.token)));

    expect(await s.endForUser(stranger.id, a.sessionId)).toBe(false);
    expect(await s.endAll(user.id)).toBe(1);
    await expectSignedOut(await me(bearer(a.token)));
    expect((await me(bearer(theirs.token))).status).toBe(200);
    expect(await s.listForUser(user.id)).toEqual([]);
  });

  it("a sign-in records the browser for the list", async () => {
    const user = await makeUser({ passwordHash: await hashPassword("correct horse") });
    const res = await call("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "TestBrowser/1.0" },
      body: JSON.stringify({ email: user.email, password: "correct horse" }),
    });
    expect(res.status).toBe(200);
    const [row] = await services().sessions.listForUser(user.id);
    expect(row?.userAgent).toBe("TestBrowser/1.0");
  });

  it("the session cookie is __Host- (Secure, Path=/, no Domain); look-alike cookies are never read as a session", async () => {
    const user = await makeUser({ passwordHash: await hashPassword("correct horse") });
    const res = await call("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: user.email, password: "correct horse" }),
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))!;
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).not.toMatch(/Domain=/i);
    const token = (await json<{ token: string }>(res)).token;
    expect((await me({ Cookie: `__Host-session=${token}` })).status).toBe(200);
    // A cookie a sibling subdomain could set (no prefix) does not sign anyone in.
    for (const spelling of [`session=${token}`, `session =${token}`, `Session=${token}`, `__Secure-session=${token}`]) {
      const answer = await me({ Cookie: spelling });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
    }
  });
});
