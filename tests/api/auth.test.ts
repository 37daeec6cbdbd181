import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { PublicUser } from "#worker/services/accounts/model.ts";
import { db, makeUser } from "../support/factories";
import { call, json } from "../support/http";
import { client } from "../support/client";
import { stopClock } from "../support/clock";

type SignedIn = { token: string; user: PublicUser };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

let counter = 0;
const uniqueEmail = (prefix = "reader") =>
  `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

type RegisterBody = Parameters<ReturnType<typeof client>["auth"]["register"]["$post"]>[0]["json"];
const register = (body: RegisterBody) => client().auth.register.$post({ json: body });
const login = (email: string, password: string) => client().auth.login.$post({ json: { email, password } });
const me = (headers: Record<string, string>) => client(headers).auth.me.$get();
const userRowsFor = (email: string) => db().select().from(schema.users).where(eq(schema.users.email, email));

function expectSessionCookie(res: { headers: Headers }, token: string) {
  const cookie = res.headers.get("Set-Cookie") ?? "";
  expect(cookie).toContain(`__Host-session=${token}`);
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/Secure/);
  expect(cookie).toMatch(/SameSite=Lax/);
  expect(cookie).toMatch(/Max-Age=\d{4,}/);
}

const INVALID = { error: { code: "invalid-credentials", message: "Invalid email or password." } };

describe("POST /api/auth/register", () => {
  it("creates the account (lower-cased email, hashed password) and signs it in with a token and a cookie", async () => {
    const email = uniqueEmail("New");
    const res = await register({
      name: "  Ada  ",
      email: email.toUpperCase(),
      password: "correct horse",
      photoURL: "https://img.example.com/ada.png",
    });
    expect(res.status).toBe(201);
    const body = await json<SignedIn>(res);
    expect(Object.keys(body).sort()).toEqual(["token", "user"]);
    expect(body.user).toEqual({
      _id: body.user._id,
      name: "Ada",
      email: email.toLowerCase(),
      role: "user",
      photoURL: "https://img.example.com/ada.png",
      // A password sign-up proves nothing about the address until its link is opened.
      emailVerified: false,
    });
    expectSessionCookie(res, body.token);

    const rows = await userRowsFor(email.toLowerCase());
    expect(rows).toHaveLength(1);
    expect(rows[0]!.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(rows[0]!.passwordHash).not.toContain("correct horse");
    // Registering creates the account only: no profile appears by itself.
    expect(await db().select().from(schema.profiles).where(eq(schema.profiles.userId, body.user._id))).toHaveLength(0);

    const who = await me({ Authorization: `Bearer ${body.token}` });
    expect(await json(who)).toEqual(body.user);
  });

  it("accepts an empty photoURL (the spec's form always sends the field) as no photo", async () => {
    const res = await register({ name: "No Photo", email: uniqueEmail(), password: "correct horse", photoURL: "" });
    expect(res.status).toBe(201);
    expect((await json<SignedIn>(res)).user.photoURL).toBeNull();
  });

  it("answers 409 email-already-in-use for an email that exists in any case, and keeps one account", async () => {
    const email = uniqueEmail();
    expect((await register({ name: "First", email, password: "correct horse" })).status).toBe(201);
    const again = await register({ name: "Second", email: email.toUpperCase(), password: "another password" });
    expect(again.status).toBe(409);
    expect((await json<ErrorBody>(again)).error.code).toBe("email-already-in-use");
    const rows = await userRowsFor(email);
    expect(rows.map((r) => r.name)).toEqual(["First"]);
  });

  it.each([
    ["short1!", "too short"],
    ["1234567890", "only digits"],
    ["x".repeat(129), "too long"],
  ])(
    "refuses the password %j (%s) with 400 password-does-not-meet-requirements and creates nothing",
    async (password) => {
      const email = uniqueEmail();
      const res = await register({ name: "Weak", email, password });
      expect(res.status).toBe(400);
      const body = await json<ErrorBody>(res);
      expect(body.error.code).toBe("password-does-not-meet-requirements");
      expect(body.error.message).toMatch(/8 to 128 characters/);
      expect(body.error.fields?.password).toMatch(/8 to 128 characters.*other than digits/);
      expect(await userRowsFor(email)).toHaveLength(0);
    },
  );

  it("reports every bad field at once, the password among them", async () => {
    const res = await register({ name: "", email: "not-an-email", password: "123", photoURL: "javascript:alert(1)" });
    expect(res.status).toBe(400);
    const body = await json<ErrorBody>(res);
    expect(body.error.code).toBe("validation-failed");
    expect(Object.keys(body.error.fields ?? {}).sort()).toEqual(["email", "name", "password", "photoURL"]);
  });

  it("answers 400, never 500, for wrong types and missing fields", async () => {
    for (const payload of [
      {},
      { name: 1, email: 2, password: 3 },
      { name: "A", email: ["a@b.co"], password: "correct horse" },
      { name: "A".repeat(81), email: uniqueEmail(), password: "correct horse" },
    ]) {
      // Bodies the contract's types refuse go as raw JSON.
      const res = await post("/api/auth/register", payload);
      expect(res.status).toBe(400);
      expect((await json<ErrorBody>(res)).error.fields).toBeTruthy();
    }
  });

  it("answers 415 for another content type, 400 for broken JSON or a non-object, 413 for a huge body", async () => {
    const text = await call("/api/auth/register", {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(text.status).toBe(415);
    expect((await post("/api/auth/register", "{not json")).status).toBe(400);
    expect((await post("/api/auth/register", "[]")).status).toBe(400);
    expect((await post("/api/auth/register", "null")).status).toBe(400);
    const huge = await register({ name: "Big", email: uniqueEmail(), password: "p".repeat(300 * 1024) });
    expect(huge.status).toBe(413);
  });

  it("answers 413 for a chunked body past the limit, without a Content-Length to go by", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Far more than the limit is on offer; the reader must stop long before the end.
        if (sent++ < 64) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await call("/api/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      // @ts-expect-error -- workerd's RequestInit knows duplex; the DOM typings here do not
      duplex: "half",
    });
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(10);
  });
});

describe("POST /api/auth/login", () => {
  it("signs in with any case of the email, with a token, the user and a cookie, and never the hash", async () => {
    const email = uniqueEmail("Login");
    await register({ name: "Grace", email, password: "correct horse" });
    const res = await login(`  ${email.toUpperCase()} `, "correct horse");
    expect(res.status).toBe(200);
    const text = await res.clone().text();
    expect(text).not.toMatch(/pbkdf2|password|hash/i);
    const body = await json<SignedIn>(res);
    expect(body.user).toMatchObject({ name: "Grace", email: email.toLowerCase(), role: "user" });
    expect(Object.keys(body.user).sort()).toEqual(["_id", "email", "emailVerified", "name", "photoURL", "role"]);
    expectSessionCookie(res, body.token);
    expect((await me({ Cookie: `__Host-session=${body.token}` })).status).toBe(200);
  });

  it("says the same thing for a wrong password, an unknown email and a Google-only account", async () => {
    const email = uniqueEmail();
    await register({ name: "Known", email, password: "correct horse" });
    const google = await makeUser({ googleSub: `g-${Date.now()}` });

    const wrong = await login(email, "wrong horse");
    const unknown = await login(uniqueEmail("nobody"), "correct horse");
    const noPassword = await login(google.email, "correct horse");
    for (const res of [wrong, unknown, noPassword]) {
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual(INVALID);
      expect(res.headers.get("Set-Cookie")).toBeNull();
    }
  });

  it("answers 400 for a missing or malformed email or password", async () => {
    for (const payload of [
      {},
      { email: "a@b.co" },
      { email: "nope", password: "correct horse" },
      { email: "a@b.co", password: 12345678 },
    ]) {
      const res = await post("/api/auth/login", payload);
      expect(res.status).toBe(400);
      expect((await json<ErrorBody>(res)).error.code).toBe("validation-failed");
    }
  });

  it("rate-limits an account after 10 failed attempts in 15 minutes, even for the right password", async () => {
    stopClock();
    const email = uniqueEmail("target");
    await register({ name: "Target", email, password: "correct horse" });
    for (let i = 0; i < 10; i++) expect((await login(email, `guess ${i} guess`)).status).toBe(401);
    const blocked = await login(email, "correct horse");
    expect(blocked.status).toBe(429);
    expect((await json<ErrorBody>(blocked)).error.code).toBe("rate-limited");
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = uniqueEmail();
    await register({ name: "Other", email: other, password: "correct horse" });
    expect((await login(other, "correct horse")).status).toBe(200);
  });

  it("a successful login clears the failed-attempt count", async () => {
    stopClock();
    const email = uniqueEmail();
    await db()
      .insert(schema.users)
      .values({ id: newId(), name: "Reset", email, passwordHash: await hashPassword("correct horse") });
    for (let i = 0; i < 9; i++) expect((await login(email, "wrong horse")).status).toBe(401);
    expect((await login(email, "correct horse")).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await login(email, "wrong horse")).status).toBe(401);
    expect((await login(email, "wrong horse")).status).toBe(429);
  });
});

describe("POST /api/auth/logout and GET /api/auth/me", () => {
  it("me answers 401 to a visitor", async () => {
    const res = await me({});
    expect(res.status).toBe(401);
    expect((await json<ErrorBody>(res)).error.code).toBe("unauthorized");
  });

  it("logout ends the session the cookie names and clears the cookie", async () => {
    const email = uniqueEmail();
    const { token } = await json<SignedIn>(await register({ name: "Leaving", email, password: "correct horse" }));
    const res = await call("/api/auth/logout", { method: "POST", headers: { Cookie: `__Host-session=${token}` } });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true });
    expect(res.headers.get("Set-Cookie")).toMatch(/^__Host-session=;.*Max-Age=0/);
    expect((await me({ Authorization: `Bearer ${token}` })).status).toBe(401);
    const [row] = await userRowsFor(email);
    expect(await db().select().from(schema.sessions).where(eq(schema.sessions.userId, row!.id))).toHaveLength(0);
  });

  it("logout also succeeds for a visitor", async () => {
    const res = await call("/api/auth/logout", { method: "POST" });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true });
    expect(res.headers.get("Set-Cookie")).toMatch(/Max-Age=0/);
  });
});
