import { configOf } from "#worker/config.ts";
import { createRoute, z } from "@hono/zod-openapi";
import { clearSessionCookie, setSessionCookies } from "#worker/auth/cookie.ts";
import { VERIFY_TEXTS } from "#worker/services/texts.ts";
import { confirmerOf } from "#worker/services/accounts/fresh-start.ts";
import { loginSchema, registerSchema } from "#worker/services/accounts/users.ts";
import { forgotSchema } from "#worker/services/accounts/password-reset.ts";
import { bodyErrors, contractApp, errors, json, jsonBody, readsJson, Record_ } from "#worker/api/contract.ts";

/** A session: the token (REST clients) and the account; the same token is set as the session cookie. */
const Session = z.object({ token: z.string(), user: Record_ });
const Done = z.object({ success: z.boolean(), message: z.string() });
/** A link's token (email verification, password reset); the service checks it. */
const tokenBody = z.object({ token: z.string() });

const routes = {
  register: createRoute({
    method: "post",
    path: "/register",
    summary: "Create an account (a confirmation mail follows)",
    middleware: [readsJson()] as const,
    // The password is checked against the policy beside the schema's fields (worker/services/accounts/users.ts).
    request: { body: jsonBody(registerSchema.extend({ password: z.string() })) },
    responses: { 201: json(Session, "Created and signed in"), ...bodyErrors },
  }),
  login: createRoute({
    method: "post",
    path: "/login",
    summary: "Sign in with email and password (sets the session cookie)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(loginSchema) },
    responses: { 200: json(Session), ...bodyErrors },
  }),
  logout: createRoute({
    method: "post",
    path: "/logout",
    summary: "Sign out",
    responses: { 200: json(z.object({ success: z.boolean() })), ...errors },
  }),
  me: createRoute({
    method: "get",
    path: "/me",
    summary: "The signed-in account, or null",
    responses: { 200: json(Record_.nullable()), ...errors },
  }),
  verify: createRoute({
    method: "post",
    path: "/verify-email",
    summary: "Confirm an email address with the link's token",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(tokenBody) },
    responses: {
      200: json(
        z.object({
          success: z.boolean(),
          emailVerified: z.boolean(),
          alreadyVerified: z.boolean(),
          accountReset: z.boolean(),
        }),
      ),
      ...bodyErrors,
    },
  }),
  resend: createRoute({
    method: "post",
    path: "/verify-email/resend",
    summary: "Mail the signed-in person a new confirmation link",
    responses: {
      200: json(z.object({ success: z.boolean(), delivered: z.boolean(), message: z.string() })),
      ...errors,
    },
  }),
  forgot: createRoute({
    method: "post",
    path: "/forgot-password",
    summary: "Mail a password reset link (the same answer whether or not the account exists)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(forgotSchema) },
    responses: { 200: json(Done), ...bodyErrors },
  }),
  reset: createRoute({
    method: "post",
    path: "/reset-password",
    summary: "Choose a new password with the link's token (ends every session)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(tokenBody.extend({ password: z.string() })) },
    responses: { 200: json(Done), ...bodyErrors },
  }),
};

/** Email and password accounts. The token comes back in the body (REST clients) and as the session cookie (pages). */
export const authApi = contractApp()
  .openapi(routes.register, async (c) => {
    const secret = configOf(c.env).sessionSecret;
    const { token, user } = await c.var.services.users.register(c.req.valid("json"), undefined, await c.var.client());
    for (const cookie of await setSessionCookies(token, user._id, secret))
      c.header("Set-Cookie", cookie, { append: true });
    return c.json({ token, user }, 201);
  })
  .openapi(routes.login, async (c) => {
    const secret = configOf(c.env).sessionSecret;
    const { token, user } = await c.var.services.users.login(c.req.valid("json"), await c.var.client());
    for (const cookie of await setSessionCookies(token, user._id, secret))
      c.header("Set-Cookie", cookie, { append: true });
    return c.json({ token, user }, 200);
  })
  // Succeeds for visitors too: signing out twice must not look like a failure.
  .openapi(routes.logout, async (c) => {
    if (c.var.sessionId) await c.var.services.sessions.end(c.var.sessionId);
    c.header("Set-Cookie", clearSessionCookie());
    return c.json({ success: true }, 200);
  })
  .openapi(routes.me, (c) => c.json(c.var.services.users.me(c.var.user), 200))
  // Email verification: the link's token, and a new link for the signed-in person.
  .openapi(routes.verify, async (c) => {
    const body = c.req.valid("json");
    const confirmer = confirmerOf(c.var.user, c.var.sessionId);
    const { alreadyVerified, accountReset } = await c.var.services.emailVerification.verify(body.token, confirmer);
    return c.json({ success: true, emailVerified: true, alreadyVerified, accountReset }, 200);
  })
  .openapi(routes.resend, async (c) => {
    const client = await c.var.client();
    const { delivered } = await c.var.services.emailVerification.resend(c.var.user, client);
    return c.json({ success: true, delivered, message: VERIFY_TEXTS.resent(c.var.user?.email ?? "") }, 200);
  })
  // Password reset: the same answer whether or not the account exists.
  .openapi(routes.forgot, async (c) => {
    const client = await c.var.client();
    const { message } = await c.var.services.passwordReset.request(c.req.valid("json"), client);
    return c.json({ success: true, message }, 200);
  })
  .openapi(routes.reset, async (c) => {
    const client = await c.var.client();
    const { message } = await c.var.services.passwordReset.reset(c.req.valid("json"), client);
    // Every session ended, this browser's too.
    c.header("Set-Cookie", clearSessionCookie());
    return c.json({ success: true, message }, 200);
  });
