import { Hono } from "hono";
import { clearSessionCookie, clientOf, knownDeviceCookies, sessionCookie } from "../auth/cookie";
import { readJson } from "./body";
import type { ApiEnv } from "./context";

/** Email and password accounts. The token comes back in the body (REST clients) and as the session cookie (pages). */
export const authApi = new Hono<ApiEnv>()
  .post("/register", async (c) => {
    const secret = c.env.SESSION_SECRET ?? "";
    const { token, user } = await c.var.services.users.register(
      await readJson(c),
      undefined,
      await clientOf(c.req.raw, secret),
    );
    c.header("Set-Cookie", sessionCookie(token));
    for (const cookie of await knownDeviceCookies(user._id, secret)) c.header("Set-Cookie", cookie, { append: true });
    return c.json({ token, user }, 201);
  })
  .post("/login", async (c) => {
    const secret = c.env.SESSION_SECRET ?? "";
    const { token, user } = await c.var.services.users.login(await readJson(c), await clientOf(c.req.raw, secret));
    c.header("Set-Cookie", sessionCookie(token));
    for (const cookie of await knownDeviceCookies(user._id, secret)) c.header("Set-Cookie", cookie, { append: true });
    return c.json({ token, user });
  })
  // Succeeds for visitors too: signing out twice must not look like a failure.
  .post("/logout", async (c) => {
    if (c.var.sessionId) await c.var.services.sessions.end(c.var.sessionId);
    c.header("Set-Cookie", clearSessionCookie());
    return c.json({ success: true });
  })
  .get("/me", (c) => c.json(c.var.services.users.me(c.var.user)));
