import { configOf } from "#worker/config.ts";
import { Hono } from "hono";
import { clearSessionCookie, setSessionCookies } from "#worker/auth/cookie.ts";
import { VERIFY_TEXTS } from "#worker/services/texts.ts";
import { confirmerOf } from "#worker/services/accounts/fresh-start.ts";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";

/** Email and password accounts. The token comes back in the body (REST clients) and as the session cookie (pages). */
export const authApi = new Hono<ApiEnv>()
  .post("/register", async (c) => {
    const secret = configOf(c.env).sessionSecret;
    const { token, user } = await c.var.services.users.register(await readJson(c), undefined, await c.var.client());
    for (const cookie of await setSessionCookies(token, user._id, secret))
      c.header("Set-Cookie", cookie, { append: true });
    return c.json({ token, user }, 201);
  })
  .post("/login", async (c) => {
    const secret = configOf(c.env).sessionSecret;
    const { token, user } = await c.var.services.users.login(await readJson(c), await c.var.client());
    for (const cookie of await setSessionCookies(token, user._id, secret))
      c.header("Set-Cookie", cookie, { append: true });
    return c.json({ token, user });
  })
  // Succeeds for visitors too: signing out twice must not look like a failure.
  .post("/logout", async (c) => {
    if (c.var.sessionId) await c.var.services.sessions.end(c.var.sessionId);
    c.header("Set-Cookie", clearSessionCookie());
    return c.json({ success: true });
  })
  .get("/me", (c) => c.json(c.var.services.users.me(c.var.user)))
  // Email verification: the link's token, and a new link for the signed-in person.
  .post("/verify-email", async (c) => {
    const body = (await readJson(c)) as { token?: unknown } | null;
    const confirmer = confirmerOf(c.var.user, c.var.sessionId);
    const { alreadyVerified, accountReset } = await c.var.services.emailVerification.verify(body?.token, confirmer);
    return c.json({ success: true, emailVerified: true, alreadyVerified, accountReset });
  })
  .post("/verify-email/resend", async (c) => {
    const client = await c.var.client();
    const { delivered } = await c.var.services.emailVerification.resend(c.var.user, client);
    return c.json({ success: true, delivered, message: VERIFY_TEXTS.resent(c.var.user?.email ?? "") });
  })
  // Password reset: the same answer whether or not the account exists.
  .post("/forgot-password", async (c) => {
    const client = await c.var.client();
    const { message } = await c.var.services.passwordReset.request(await readJson(c), client);
    return c.json({ success: true, message });
  })
  .post("/reset-password", async (c) => {
    const client = await c.var.client();
    const { message } = await c.var.services.passwordReset.reset(await readJson(c), client);
    // Every session ended, this browser's too.
    c.header("Set-Cookie", clearSessionCookie());
    return c.json({ success: true, message });
  });
