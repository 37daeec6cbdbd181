import { eq } from "drizzle-orm";
import { SignJWT, UnsecuredJWT, decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db";
import { newId } from "#worker/services/ids";
import type { PublicUser } from "#worker/services/users";
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
    const res = await me({ Cookie: `theme=dark; session=${await sessionFor(user)}` });
    expect(res.status).toBe(200);
    expect((await json<PublicUser>(res))._id).toBe(user.id);
  });

  it("no token, or garbage, is signed out", async () => {
    await expectSignedOut(await me({}));
    await expectSignedOut(await me(bearer("not-a-jwt")));
    await expectSignedOut(await me({ Cookie: "session=a.b.c" }));
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
    await expectSignedOut(await me({ Cookie: `session=${token}` }));
    expect((await me(bearer(other))).status).toBe(200);
  });
});
