import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { count, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { schema } from "#worker/db.ts";
import worker from "#worker/index.ts";
import { db, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { call, json } from "../support/http";

const TOKEN_ENDPOINT = "https://oauth2.googleapis.com/token";
const ORIGIN = "https://blog.test";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
const googleSub = () => `1${Date.now()}${counter++}`.padEnd(21, "7");

/** The test Worker has no Google client configured; these calls get one, as production would. */
function googleEnv(overrides: Partial<Cloudflare.Env> = {}): Cloudflare.Env {
  return { ...env, GOOGLE_CLIENT_ID: "cid", GOOGLE_CLIENT_SECRET: "secret", ...overrides };
}

async function send(path: string, init: RequestInit = {}, workerEnv: Cloudflare.Env = googleEnv()) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(new URL(path, ORIGIN), { redirect: "manual", ...init }) as Request<
      unknown,
      IncomingRequestCfProperties
    >,
    workerEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** name -> the Set-Cookie line, for the cookies a response sets. */
function setCookies(res: Response): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) out.set(line.slice(0, line.indexOf("=")), line);
  return out;
}

const cookieValue = (line: string | undefined) =>
  line ? decodeURIComponent(line.slice(line.indexOf("=") + 1).split(";")[0]!) : undefined;

const base64url = (value: string | Uint8Array) =>
  btoa(typeof value === "string" ? value : String.fromCharCode(...value))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/**
 * An ID token as Google's token endpoint returns it. Unsigned (a placeholder signature) is enough:
 * the ID token comes straight from Google's token endpoint over TLS, which is why signature
 * verification is not needed (OpenID Connect Core 3.1.3.7), and arctic's decodeIdToken does not verify it.
 */
function idToken(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: "https://accounts.google.com", aud: "cid", iat: now, exp: now + 3600, ...claims };
  return `${base64url(JSON.stringify({ alg: "RS256", kid: "test", typ: "JWT" }))}.${base64url(JSON.stringify(payload))}.${base64url("signature")}`;
}

interface Person {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

function person(overrides: Partial<Person> = {}): Person {
  return {
    sub: googleSub(),
    email: `g-${unique()}@gmail.test`,
    email_verified: true,
    name: "Grace Google",
    picture: "https://lh3.googleusercontent.com/a/photo-1",
    ...overrides,
  };
}

/** Google's token endpoint, stubbed at the fetch boundary: the only outbound call the flow makes. */
function stubGoogle(answer: Person | Error | Response) {
  const requests: Request[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (request.url !== TOKEN_ENDPOINT) throw new Error(`unexpected outbound fetch to ${request.url}`);
    requests.push(request);
    if (answer instanceof Error) throw answer;
    if (answer instanceof Response) return answer;
    return Response.json({
      access_token: "ya29.test",
      expires_in: 3599,
      token_type: "Bearer",
      scope: "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
      id_token: idToken(answer as unknown as Record<string, unknown>),
    });
  });
  return { spy, requests };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Starts a sign-in like a browser would; returns the cookies to send back and Google's URL. */
async function start(query: Record<string, string> = {}, workerEnv = googleEnv()) {
  const res = await send(`/auth/google?${new URLSearchParams(query)}`, {}, workerEnv);
  const cookies = setCookies(res);
  const cookieHeader = [...cookies.values()].map((line) => line.split(";")[0]).join("; ");
  return { res, cookies, cookieHeader, state: cookieValue(cookies.get("google_oauth_state"))! };
}

function callback(cookieHeader: string, query: Record<string, string>, workerEnv = googleEnv()) {
  return send(`/auth/google/callback?${new URLSearchParams(query)}`, { headers: { Cookie: cookieHeader } }, workerEnv);
}

/** A whole sign-in: start, Google says yes for `who`, callback. */
async function signInAs(who: Person, query: Record<string, string> = {}, workerEnv = googleEnv()) {
  const flow = await start(query, workerEnv);
  const google = stubGoogle(who);
  const res = await callback(flow.cookieHeader, { state: flow.state, code: "4/auth-code" }, workerEnv);
  return { res, flow, google };
}

async function userByEmail(email: string) {
  return db().select().from(schema.users).where(eq(schema.users.email, email.toLowerCase())).get();
}

async function sessionCount(userId: string) {
  const [row] = await db().select({ n: count() }).from(schema.sessions).where(eq(schema.sessions.userId, userId));
  return row!.n;
}

function sessionToken(res: Response): string | undefined {
  return cookieValue(setCookies(res).get("__Host-session"));
}

/** The result the popup page hands to its opener, read back out of its inline script. */
function popupResult(page: string): Record<string, unknown> {
  const match = /var result = (.*);\n/.exec(page);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

describe("GET /auth/google", () => {
  it("redirects to Google with state, an S256 PKCE challenge, the client id and our callback, and sets short-lived flow cookies", async () => {
    const { res, cookies, state } = await start({
      redirectTo: "/dashboard/writeBlogs?draft=1",
      mode: "popup",
      intent: "register",
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("Location")!);
    expect(location.origin + location.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(location.searchParams.get("client_id")).toBe("cid");
    expect(location.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/google/callback`);
    expect(location.searchParams.get("response_type")).toBe("code");
    expect(location.searchParams.get("scope")).toBe("openid profile email");
    expect(location.searchParams.get("state")).toBe(state);
    expect(state.length).toBeGreaterThanOrEqual(40);
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");

    const verifier = cookieValue(cookies.get("google_code_verifier"))!;
    const challenge = base64url(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
    );
    expect(location.searchParams.get("code_challenge")).toBe(challenge);
    // The verifier itself never leaves our cookie.
    expect(location.toString()).not.toContain(verifier);

    expect(cookieValue(cookies.get("google_redirect_to"))).toBe("/dashboard/writeBlogs?draft=1");
    expect(cookieValue(cookies.get("google_mode"))).toBe("popup");
    expect(cookieValue(cookies.get("google_intent"))).toBe("register");
    for (const name of [
      "google_oauth_state",
      "google_code_verifier",
      "google_redirect_to",
      "google_mode",
      "google_intent",
    ]) {
      const line = cookies.get(name)!;
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; Secure/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).toMatch(/; Max-Age=600/);
      expect(line).toMatch(/; Path=\/auth\/google/);
    }
  });

  it("issues a new state and verifier for every start", async () => {
    const a = await start();
    const b = await start();
    expect(a.state).not.toBe(b.state);
    expect(cookieValue(a.cookies.get("google_code_verifier"))).not.toBe(
      cookieValue(b.cookies.get("google_code_verifier")),
    );
  });

  it.each([
    "//evil.com",
    "https://evil.com/steal",
    "/\\evil.com",
    "javascript:alert(1)",
    "/\r\nSet-Cookie:x=1",
    "evil.com",
  ])("keeps only same-site paths as the destination: %j becomes /", async (redirectTo) => {
    const { cookies } = await start({ redirectTo });
    expect(cookieValue(cookies.get("google_redirect_to"))).toBe("/");
  });

  it("answers a clear 503 page, not a broken redirect, when no Google client is configured", async () => {
    // The test Worker's own environment has no GOOGLE_CLIENT_ID/SECRET.
    const res = await call("/auth/google?mode=redirect", { redirect: "manual" });
    expect(res.status).toBe(503);
    expect(res.headers.get("Location")).toBeNull();
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("Google sign-in is not configured");
    expect(res.headers.getSetCookie()).toEqual([]);

    const half = await send("/auth/google", {}, googleEnv({ GOOGLE_CLIENT_SECRET: "" }));
    expect(half.status).toBe(503);
  });

  it("tells the opener google-not-configured in popup mode", async () => {
    const res = await call("/auth/google?mode=popup", { redirect: "manual" });
    expect(res.status).toBe(503);
    const result = popupResult(await res.text());
    expect(result).toMatchObject({ type: "auth:google", ok: false, code: "google-not-configured" });
    expect(result.message).toMatch(/Google sign-in is not configured/);
  });
});

describe("GET /auth/google/callback", () => {
  it("creates the account, signs the person in with a session cookie that /api/auth/me accepts, and returns to the destination", async () => {
    const who = person({ email: `New-${unique()}@Gmail.test` });
    const { res, flow, google } = await signInAs(who, { redirectTo: "/allBlogs" });

    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/allBlogs");

    // The code went to Google's token endpoint with the PKCE verifier, our callback and our credentials.
    expect(google.requests).toHaveLength(1);
    const tokenRequest = google.requests[0]!;
    expect(tokenRequest.method).toBe("POST");
    const form = new URLSearchParams(new TextDecoder().decode(await tokenRequest.arrayBuffer()));
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("code")).toBe("4/auth-code");
    expect(form.get("code_verifier")).toBe(cookieValue(flow.cookies.get("google_code_verifier")));
    expect(form.get("redirect_uri")).toBe(`${ORIGIN}/auth/google/callback`);
    expect(tokenRequest.headers.get("Authorization")).toBe(`Basic ${btoa("cid:secret")}`);

    const user = await userByEmail(who.email);
    expect(user).toMatchObject({
      name: "Grace Google",
      email: who.email.toLowerCase(),
      googleSub: who.sub,
      photoUrl: who.picture,
      role: "user",
      passwordHash: null,
    });
    expect(await sessionCount(user!.id)).toBe(1);

    const cookie = setCookies(res).get("__Host-session")!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    const me = await call("/api/auth/me", { headers: { Cookie: `__Host-session=${sessionToken(res)}` } });
    expect(me.status).toBe(200);
    expect(await json(me)).toMatchObject({
      _id: user!.id,
      email: who.email.toLowerCase(),
      role: "user",
      photoURL: who.picture,
    });

    // A state is good for one callback: the flow cookies are cleared.
    for (const name of [
      "google_oauth_state",
      "google_code_verifier",
      "google_redirect_to",
      "google_mode",
      "google_intent",
    ]) {
      expect(setCookies(res).get(name)).toMatch(/Max-Age=0/);
    }
  });

  it("in redirect mode (popup blocked, or no JavaScript) lands with the spec's success message as a flash", async () => {
    for (const [intent, title, text] of [
      ["login", "Success", "You have successfully signed up!"],
      ["register", "Register Successful!", "You can now use Google Login."],
    ] as const) {
      const { res } = await signInAs(person(), { mode: "redirect", intent, redirectTo: "/about" });
      expect(res.status, intent).toBe(302);
      expect(res.headers.get("Location"), intent).toBe("/about");
      expect(flashOf(res), intent).toEqual({ kind: "toast", title, text, icon: "success" });

      // The page it lands on shows the message once (a banner in the HTML; a toast once hydrated).
      const flash = res.headers
        .getSetCookie()
        .find((c) => c.startsWith("flash="))!
        .split(";")[0]!;
      const landing = await call("/about", {
        headers: { Cookie: `__Host-session=${sessionToken(res)}; ${flash}` },
        redirect: "manual",
      });
      const html = await landing.text();
      expect(html, intent).toContain(title);
      expect(html, intent).toContain(text);
      expect(
        landing.headers.getSetCookie().some((c) => /^flash=;|^flash=[^;]*;.*Max-Age=0/.test(c)),
        intent,
      ).toBe(true);
    }
  });

  it("makes the account an admin when its email is in ADMIN_EMAILS", async () => {
    const who = person();
    const { res } = await signInAs(
      who,
      {},
      googleEnv({ ADMIN_EMAILS: `someone@else.test, ${who.email.toUpperCase()}` }),
    );
    expect(res.status).toBe(302);
    expect((await userByEmail(who.email))?.role).toBe("admin");
  });

  it("signs a returning person in by their Google subject, even after their Google email changed", async () => {
    const sub = googleSub();
    const existing = await makeUser({ googleSub: sub, name: "Returning Reader" });
    const { res } = await signInAs(person({ sub, email: `changed-${unique()}@gmail.test` }));

    expect(res.status).toBe(302);
    const [bySub] = await db().select({ n: count() }).from(schema.users).where(eq(schema.users.googleSub, sub));
    expect(bySub!.n).toBe(1);
    const after = await db().select().from(schema.users).where(eq(schema.users.id, existing.id)).get();
    expect(after).toMatchObject({ email: existing.email, name: "Returning Reader" });
    expect(await sessionCount(existing.id)).toBe(1);
    const me = await call("/api/auth/me", { headers: { Cookie: `__Host-session=${sessionToken(res)}` } });
    expect((await json<{ _id: string }>(me))._id).toBe(existing.id);
  });

  it("links an existing verified email and password account when Google has verified the email, keeping its role and password", async () => {
    const existing = await makeUser({
      passwordHash: "pbkdf2-sha256$100000$salt$hash",
      role: "admin",
      name: "Ada Admin",
      emailVerifiedAt: Date.now() - 1000,
    });
    const who = person({ email: existing.email.toUpperCase(), email_verified: true });
    const { res } = await signInAs(who, { mode: "popup" });

    expect(res.status).toBe(200);
    expect(popupResult(await res.text())).toMatchObject({ ok: true, isNewUser: false });
    const after = await db().select().from(schema.users).where(eq(schema.users.id, existing.id)).get();
    expect(after).toMatchObject({
      googleSub: who.sub,
      role: "admin",
      passwordHash: "pbkdf2-sha256$100000$salt$hash",
      name: "Ada Admin",
      // The account had no photo: Google's fills the gap.
      photoUrl: who.picture,
    });
    const [sameEmail] = await db()
      .select({ n: count() })
      .from(schema.users)
      .where(eq(schema.users.email, existing.email));
    expect(sameEmail!.n).toBe(1);
    expect(await sessionCount(existing.id)).toBe(1);
  });

  it("refuses to link when Google has not verified the email: no takeover, no session", async () => {
    const existing = await makeUser({ passwordHash: "pbkdf2-sha256$100000$salt$hash" });
    const { res } = await signInAs(person({ email: existing.email, email_verified: false }));

    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Google has not verified that this email is yours");
    expect(setCookies(res).has("__Host-session")).toBe(false);
    const after = await db().select().from(schema.users).where(eq(schema.users.id, existing.id)).get();
    expect(after?.googleSub).toBeNull();
    expect(await sessionCount(existing.id)).toBe(0);
  });

  it("tells the popup's opener account-exists-unverified", async () => {
    const existing = await makeUser();
    const { res } = await signInAs(person({ email: existing.email, email_verified: false }), { mode: "popup" });
    expect(res.status).toBe(409);
    expect(popupResult(await res.text())).toMatchObject({
      type: "auth:google",
      ok: false,
      code: "account-exists-unverified",
    });
    expect(await sessionCount(existing.id)).toBe(0);
  });

  it("does not create an account on an email Google has not verified", async () => {
    const who = person({ email_verified: false });
    const { res } = await signInAs(who);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("email address is not verified");
    expect(await userByEmail(who.email)).toBeUndefined();
  });

  it("answers 400 for a state that does not match the cookie, without calling Google or creating anyone", async () => {
    const flow = await start();
    const who = person();
    const google = stubGoogle(who);

    const forged = await callback(flow.cookieHeader, { state: "attacker-state", code: "4/auth-code" });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("was not started from this browser");

    const noCookie = await callback("", { state: flow.state, code: "4/auth-code" });
    expect(noCookie.status).toBe(400);

    const noState = await callback(flow.cookieHeader, { code: "4/auth-code" });
    expect(noState.status).toBe(400);

    expect(google.spy).not.toHaveBeenCalled();
    expect(await userByEmail(who.email)).toBeUndefined();
    expect(setCookies(forged).has("__Host-session")).toBe(false);
  });

  it("tells the opener state-mismatch in popup mode", async () => {
    const flow = await start({ mode: "popup" });
    const res = await callback(flow.cookieHeader, { state: "wrong", code: "4/auth-code" });
    expect(res.status).toBe(400);
    expect(popupResult(await res.text())).toMatchObject({ ok: false, code: "state-mismatch" });
  });

  it("explains a cancelled consent (error=access_denied) and creates nothing", async () => {
    const flow = await start({ mode: "popup" });
    const google = stubGoogle(person());
    const res = await callback(flow.cookieHeader, { state: flow.state, error: "access_denied" });

    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain("Google sign-in was cancelled");
    expect(popupResult(page)).toMatchObject({ ok: false, code: "access-denied" });
    expect(google.spy).not.toHaveBeenCalled();
    expect(setCookies(res).has("__Host-session")).toBe(false);
  });

  it("answers network-request-failed when Google's token endpoint cannot be reached", async () => {
    const flow = await start({ mode: "popup" });
    const who = person();
    stubGoogle(new TypeError("Network connection lost."));
    const res = await callback(flow.cookieHeader, { state: flow.state, code: "4/auth-code" });

    expect(res.status).toBe(502);
    expect(popupResult(await res.text())).toMatchObject({ ok: false, code: "network-request-failed" });
    expect(await userByEmail(who.email)).toBeUndefined();
  });

  it("answers google-error when Google refuses the code", async () => {
    const flow = await start();
    stubGoogle(Response.json({ error: "invalid_grant", error_description: "Bad Request" }, { status: 400 }));
    const res = await callback(flow.cookieHeader, { state: flow.state, code: "4/used-code" });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Google could not complete the sign-in");
  });

  it("rejects an ID token issued to another client", async () => {
    const flow = await start();
    const who = person();
    stubGoogle({ ...who, aud: "someone-elses-client" } as Person);
    const res = await callback(flow.cookieHeader, { state: flow.state, code: "4/auth-code" });
    expect(res.status).toBe(502);
    expect(await userByEmail(who.email)).toBeUndefined();
  });

  it("hands the session to the opener in popup mode with a page under a nonce CSP", async () => {
    const who = person({ name: "</script><script>alert(1)</script>" });
    const { res } = await signInAs(who, { mode: "popup", intent: "register", redirectTo: "/Profile" });

    expect(res.status).toBe(200);
    const csp = res.headers.get("Content-Security-Policy")!;
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    const page = await res.text();
    expect(page).toContain(`<script nonce="${nonce}">`);
    expect(page).toContain("window.opener");
    expect(page).toContain("opener.postMessage(result, location.origin)");
    expect(page).toContain("window.close()");
    expect(page).toContain("location.replace(result.redirectTo)");
    expect(popupResult(page)).toEqual({
      type: "auth:google",
      ok: true,
      isNewUser: true,
      intent: "register",
      redirectTo: "/Profile",
    });
    // The Google name is stored, never echoed into the page.
    expect(page).not.toContain("alert(1)");
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");

    const user = await userByEmail(who.email);
    expect(await sessionCount(user!.id)).toBe(1);
    const me = await call("/api/auth/me", { headers: { Cookie: `__Host-session=${sessionToken(res)}` } });
    expect(me.status).toBe(200);
  });

  it("escapes a destination so it cannot break out of the popup's script", async () => {
    const { res } = await signInAs(person(), { mode: "popup", redirectTo: "/x</script><img src=x onerror=alert(1)>" });
    const page = await res.text();
    expect(page).not.toContain("</script><img");
    expect(page).not.toMatch(/<img/);
    expect(String(popupResult(page).redirectTo)).toMatch(/^\/x/);
  });

  it("never reflects the callback's query string into the page", async () => {
    const flow = await start({ mode: "popup" });
    const res = await callback(flow.cookieHeader, {
      state: flow.state,
      error: "<script>alert(1)</script>",
      error_description: "<b>owned</b>",
    });
    const page = await res.text();
    expect(page).not.toContain("alert(1)");
    expect(page).not.toContain("owned");
    expect(popupResult(page)).toMatchObject({ ok: false, code: "google-error" });
  });

  it.each(["//evil.com", "https://evil.com"])(
    "ignores an open-redirect destination %s after sign-in",
    async (redirectTo) => {
      const who = person();
      const { res } = await signInAs(who, { redirectTo });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
      expect(await userByEmail(who.email)).toBeTruthy();
    },
  );

  it("ignores a forged destination cookie as well", async () => {
    const flow = await start();
    stubGoogle(person());
    const cookies = flow.cookieHeader
      .split("; ")
      .filter((c) => !c.startsWith("google_redirect_to="))
      .concat(`google_redirect_to=${encodeURIComponent("//evil.com")}`)
      .join("; ");
    const res = await callback(cookies, { state: flow.state, code: "4/auth-code" });
    expect(res.headers.get("Location")).toBe("/");
  });

  it("answers the callback with the not-configured page too, creating nothing", async () => {
    const flow = await start();
    const res = await callback(flow.cookieHeader, { state: flow.state, code: "4/auth-code" }, env);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("Google sign-in is not configured");
    expect(setCookies(res).has("__Host-session")).toBe(false);
  });
});

describe("Google re-authentication (intent=reauth, before deleting a Google-only account)", () => {
  /** A signed-in Google-only account, and the cookie header its browser sends. */
  async function googleOnly() {
    const who = person();
    const { res } = await signInAs(who);
    const token = sessionToken(res)!;
    return { who, session: `__Host-session=${token}`, user: (await userByEmail(who.email))! };
  }

  async function reauthAs(session: string, who: Person, redirectTo = "/settings#delete-account") {
    const flow = await start({ intent: "reauth", redirectTo });
    stubGoogle(who);
    return callback(`${flow.cookieHeader}; ${session}`, { state: flow.state, code: "4/auth-code" });
  }

  it("sets a short-lived signed proof for the same Google account, starts no new session, and goes back", async () => {
    const { who, session, user } = await googleOnly();
    const before = await sessionCount(user.id);
    const res = await reauthAs(session, who);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/settings#delete-account");
    const proof = setCookies(res).get("reauth")!;
    expect(proof).toMatch(/; Max-Age=300/);
    expect(proof).toMatch(/; HttpOnly/);
    expect(setCookies(res).has("__Host-session")).toBe(false);
    expect(await sessionCount(user.id)).toBe(before);

    // The proof lets the account delete itself without a password.
    const del = await call("/api/auth/account", {
      method: "DELETE",
      headers: { Cookie: `${session}; ${proof.split(";")[0]}` },
    });
    expect(del.status).toBe(200);
    expect(await userByEmail(who.email)).toBeUndefined();
  });

  it("refuses another Google account (403) and a visitor (401), setting no proof", async () => {
    const { session } = await googleOnly();
    const res = await reauthAs(session, person());
    expect(res.status).toBe(403);
    expect(setCookies(res).has("reauth")).toBe(false);
    const visitor = await reauthAs("", person());
    expect(visitor.status).toBe(401);
    expect(setCookies(visitor).has("reauth")).toBe(false);
  });
});

// Account pre-hijacking. An attacker registers the victim's address with a password before
// the victim ever signs up; the victim later signs in with Google. The link must not leave the
// attacker a way in (docs/decisions/025-pre-hijacking.md).
describe("pre-hijacking through an unverified account", () => {
  const clientIp = () => `10.77.${counter % 250}.${counter++ % 250}`;
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send(path, {
      method: "POST",
      // Each call its own client: per-client sign-up limits are not what these tests are about.
      headers: { "Content-Type": "application/json", Origin: ORIGIN, "CF-Connecting-IP": clientIp(), ...headers },
      body: JSON.stringify(body),
    });

  it("the attacker's password and session stop working once the victim signs in with Google", async () => {
    const victim = person({ email: `victim-${unique()}@gmail.test`, email_verified: true });
    const registered = await postJson("/api/auth/register", {
      name: "Not The Victim",
      email: victim.email,
      password: "attacker-password-1",
    });
    expect(registered.status).toBe(201);
    const { token: attackerToken, user } = await json<{ token: string; user: { _id: string } }>(registered);
    const asAttacker = { Authorization: `Bearer ${attackerToken}` };
    expect((await send("/api/auth/me", { headers: asAttacker })).status).toBe(200);

    const { res } = await signInAs(victim, { mode: "popup" });
    expect(res.status).toBe(200);
    expect(popupResult(await res.text())).toMatchObject({ ok: true, isNewUser: false });
    const victimToken = sessionToken(res)!;

    // The attacker's session is gone, and the password they set no longer signs in.
    expect((await send("/api/auth/me", { headers: asAttacker })).status).toBe(401);
    const login = await postJson("/api/auth/login", { email: victim.email, password: "attacker-password-1" });
    expect(login.status).toBe(401);

    // The victim is in, on the same (now verified) account, with only their own session.
    const me = await send("/api/auth/me", { headers: { Authorization: `Bearer ${victimToken}` } });
    expect(await json(me)).toMatchObject({ _id: user._id, email: victim.email, emailVerified: true });
    const row = await userByEmail(victim.email);
    expect(row).toMatchObject({ googleSub: victim.sub, passwordHash: null });
    expect(row?.emailVerifiedAt).not.toBeNull();
    expect(await sessionCount(user._id)).toBe(1);
  });

  it("pending links and passkeys of the unverified account stop working too", async () => {
    const victim = person({ email: `victim-${unique()}@gmail.test`, email_verified: true });
    const existing = await makeUser({
      email: victim.email,
      passwordHash: "pbkdf2-sha256$100000$salt$hash",
      emailVerifiedAt: null,
    });
    const { createServices } = await import("#worker/services/index.ts");
    const issued = await createServices(env).accountTokens.issue("email-change", existing.id, {
      newEmail: "attacker@evil.test",
    });
    await db().batch(issued.statements);
    await db()
      .insert(schema.passkeys)
      .values({ id: `pk-${unique()}`, userId: existing.id, name: "Squatter's key", publicKey: "AAAA" });

    await signInAs(victim, { mode: "popup" });
    expect(await db().select().from(schema.passkeys).where(eq(schema.passkeys.userId, existing.id))).toEqual([]);
    await expect(createServices(env).accountTokens.inspect("email-change", issued.token)).rejects.toMatchObject({
      code: "token-invalid",
    });
  });

  it("a verified account keeps its password and sessions when Google links to it", async () => {
    const owner = person({ email: `owner-${unique()}@gmail.test`, email_verified: true });
    const existing = await makeUser({
      email: owner.email,
      passwordHash: "pbkdf2-sha256$100000$salt$hash",
      emailVerifiedAt: Date.now() - 60_000,
    });
    const { createServices } = await import("#worker/services/index.ts");
    const { token } = await createServices(env).sessions.start(existing);

    await signInAs(owner, { mode: "popup" });
    expect((await send("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await userByEmail(owner.email))?.passwordHash).toBe("pbkdf2-sha256$100000$salt$hash");
  });

  it("an ADMIN_EMAILS address is admin through Google only with Google's verified email", async () => {
    const boss = `boss-${unique()}@gmail.test`;
    const adminEnv = googleEnv({ ADMIN_EMAILS: boss });
    const { res } = await signInAs(person({ email: boss, email_verified: true }), { mode: "popup" }, adminEnv);
    expect(res.status).toBe(200);
    expect(await userByEmail(boss)).toMatchObject({ role: "admin" });
    expect((await userByEmail(boss))?.emailVerifiedAt).not.toBeNull();
  });

  it("a registered, unverified ADMIN_EMAILS account becomes admin when its owner signs in with Google", async () => {
    const boss = `boss-${unique()}@gmail.test`;
    const adminEnv = googleEnv({ ADMIN_EMAILS: boss });
    const registered = await send(
      "/api/auth/register",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: ORIGIN, "CF-Connecting-IP": clientIp() },
        body: JSON.stringify({ name: "Boss", email: boss, password: "boss-password-1" }),
      },
      adminEnv,
    );
    expect(await json(registered)).toMatchObject({ user: { role: "user", emailVerified: false } });
    await signInAs(person({ email: boss, email_verified: true }), { mode: "popup" }, adminEnv);
    expect(await userByEmail(boss)).toMatchObject({ role: "admin", passwordHash: null });
  });
});
