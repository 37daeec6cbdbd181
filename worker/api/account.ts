import { configOf } from "#worker/config.ts";
import { createRoute, z } from "@hono/zod-openapi";
import { clearSessionCookie, deviceOf, setSessionCookies } from "#worker/auth/cookie.ts";
import { clearReauthCookie, readReauth } from "#worker/auth/reauth.ts";
import { deviceLabel } from "#worker/services/accounts/settings.ts";
import { toPublicUser } from "#worker/services/accounts/model.ts";
import { confirmerOf } from "#worker/services/accounts/fresh-start.ts";
import {
  bodyErrors,
  contractApp,
  Deleted,
  errors,
  json,
  jsonBody,
  readsJson,
  Record_,
  TextParam,
} from "#worker/api/contract.ts";
import { contactEmailInput } from "#worker/services/accounts/settings.ts";
import { requestSchema } from "#worker/services/accounts/email-change.ts";
import { authenticationSchema, registrationSchema } from "#worker/services/accounts/passkey-ceremony.ts";
import type { ApiContext } from "#worker/api/context.ts";
import { attachment } from "#worker/services/export/format.ts";

/** The relying party of a WebAuthn ceremony: the origin the request came to (its host is the RP ID). */
const relyingParty = (c: ApiContext) => ({ origin: new URL(c.req.url).origin });

/** The password that proves it is the owner (an account with Google only proves it by signing in again). */
const password = z.object({ password: z.string().optional() });
const Session = z.object({ token: z.string(), user: Record_ });

const routes = {
  changePassword: createRoute({
    method: "post",
    path: "/change-password",
    summary: "Change the password (ends the account's other sessions)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(z.object({ currentPassword: z.string(), newPassword: z.string() })) },
    responses: { 200: json(z.object({ modifiedCount: z.number(), sessionsEnded: z.number() })), ...bodyErrors },
  }),
  changeEmail: createRoute({
    method: "post",
    path: "/change-email",
    summary: "Ask to change the sign-in email: a link goes to the new address",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(requestSchema.extend(password.shape)) },
    responses: { 202: json(Record_, "A confirmation link is on its way"), ...bodyErrors },
  }),
  confirmEmailChange: createRoute({
    method: "post",
    path: "/confirm-email-change",
    summary: "Confirm the new email with the link's token",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(z.object({ token: z.string() })) },
    responses: {
      200: json(z.object({ modifiedCount: z.number(), email: z.string(), accountReset: z.boolean() })),
      ...bodyErrors,
    },
  }),
  contactEmail: createRoute({
    method: "put",
    path: "/contact-email",
    summary: 'The public contact address shown in place of the sign-in address ("" for none)',
    middleware: [readsJson()] as const,
    request: { body: jsonBody(contactEmailInput) },
    responses: { 200: json(Record_), ...bodyErrors },
  }),
  sessions: createRoute({
    method: "get",
    path: "/sessions",
    summary: "The account's signed-in sessions, the one asking marked current",
    responses: { 200: json(z.array(Record_)), ...errors },
  }),
  endOthers: createRoute({
    method: "post",
    path: "/sessions/end-others",
    summary: "Sign out every other session",
    responses: { 200: json(Record_), ...errors },
  }),
  endSession: createRoute({
    method: "delete",
    path: "/sessions/{id}",
    summary: "Sign out one session",
    request: { params: z.object({ id: TextParam }) },
    responses: { 200: json(Record_), ...errors },
  }),
  export: createRoute({
    method: "get",
    path: "/export",
    summary: "Download the account's data as a zip",
    responses: {
      200: { description: "A zip", content: { "application/zip": { schema: z.string() } } },
      ...errors,
    },
  }),
  deleteAccount: createRoute({
    method: "delete",
    path: "/account",
    summary: "Delete the account (with its password, or after signing in again with Google)",
    middleware: [readsJson(true)] as const,
    request: { body: jsonBody(password, "Optional: {password}", false) },
    responses: { 200: json(Deleted), ...bodyErrors },
  }),
  passkeys: createRoute({
    method: "get",
    path: "/passkeys",
    summary: "The account's passkeys",
    responses: { 200: json(z.array(Record_)), ...errors },
  }),
  registerOptions: createRoute({
    method: "post",
    path: "/passkeys/register/options",
    summary: "WebAuthn options to create a passkey",
    responses: { 200: json(Record_), ...errors },
  }),
  registerVerify: createRoute({
    method: "post",
    path: "/passkeys/register/verify",
    summary: "Keep the passkey the browser created",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(registrationSchema) },
    responses: { 201: json(Record_, "Created"), ...bodyErrors },
  }),
  removePasskey: createRoute({
    method: "delete",
    path: "/passkeys/{id}",
    summary: "Remove a passkey",
    request: { params: z.object({ id: TextParam }) },
    responses: { 200: json(Record_), ...errors },
  }),
  loginOptions: createRoute({
    method: "post",
    path: "/passkeys/login/options",
    summary: "WebAuthn options to sign in with a passkey",
    responses: { 200: json(Record_), ...errors },
  }),
  loginVerify: createRoute({
    method: "post",
    path: "/passkeys/login/verify",
    summary: "Sign in with the passkey's answer (sets the session cookie)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(authenticationSchema) },
    responses: { 200: json(Session), ...bodyErrors },
  }),
};

/**
 * Account settings under /api/auth (the /settings page calls the same services): password, sessions,
 * the data download, deleting the account, and passkeys. Everything here is the caller's own account.
 */
export const accountApi = contractApp()
  .openapi(routes.changePassword, async (c) => {
    const result = await c.var.services.account.changePassword(
      c.var.user,
      c.var.sessionId,
      c.req.valid("json"),
      new URL(c.req.url).origin,
    );
    return c.json(result, 200);
  })
  .openapi(routes.changeEmail, async (c) => {
    const body = c.req.valid("json");
    const googleReauthAt = await readReauth(c.req.raw, configOf(c.env).sessionSecret, c.var.user?.id);
    const origin = new URL(c.req.url).origin;
    const result = await c.var.services.emailChange.request(
      c.var.user,
      body,
      { password: body.password, googleReauthAt },
      origin,
    );
    return c.json(result, 202);
  })
  // The link's token proves the address; without the account's own session the account starts afresh.
  .openapi(routes.confirmEmailChange, async (c) => {
    const body = c.req.valid("json");
    const confirmer = confirmerOf(c.var.user, c.var.sessionId);
    const { email, accountReset } = await c.var.services.emailChange.confirm(
      body.token,
      new URL(c.req.url).origin,
      confirmer,
    );
    return c.json({ modifiedCount: 1, email, accountReset }, 200);
  })
  // The public contact address shown in place of the sign-in address (decision 048): {contactEmail}, "" for none.
  .openapi(routes.contactEmail, async (c) =>
    c.json(await c.var.services.account.setContactEmail(c.var.user, c.req.valid("json")), 200),
  )
  .openapi(routes.sessions, async (c) =>
    c.json(await c.var.services.account.listSessions(c.var.user, c.var.sessionId), 200),
  )
  .openapi(routes.endOthers, async (c) =>
    c.json(await c.var.services.account.endOtherSessions(c.var.user, c.var.sessionId), 200),
  )
  .openapi(routes.endSession, async (c) =>
    c.json(await c.var.services.account.endSession(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.export, async (c) => {
    const { filename, body } = await c.var.services.dataExport.create(c.var.user);
    return new Response(body, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": attachment(filename),
        "Cache-Control": "private, no-store",
      },
    });
  })
  .openapi(routes.deleteAccount, async (c) => {
    const body = c.req.valid("json");
    const secret = configOf(c.env).sessionSecret;
    const googleReauthAt = await readReauth(c.req.raw, secret, c.var.user?.id);
    const result = await c.var.services.account.deleteAccount(
      c.var.user,
      { password: body.password, googleReauthAt },
      new URL(c.req.url).origin,
    );
    c.header("Set-Cookie", clearSessionCookie());
    c.header("Set-Cookie", clearReauthCookie(), { append: true });
    return c.json(result, 200);
  })
  .openapi(routes.passkeys, async (c) => c.json(await c.var.services.passkeys.list(c.var.user), 200))
  .openapi(routes.registerOptions, async (c) =>
    c.json(await c.var.services.passkeys.registrationOptions(c.var.user, relyingParty(c)), 200),
  )
  .openapi(routes.registerVerify, async (c) =>
    c.json(
      await c.var.services.passkeys.register(
        c.var.user,
        relyingParty(c),
        c.req.valid("json"),
        deviceLabel(c.req.header("User-Agent") ?? null),
      ),
      201,
    ),
  )
  .openapi(routes.removePasskey, async (c) =>
    c.json(await c.var.services.passkeys.remove(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.loginOptions, async (c) =>
    c.json(
      await c.var.services.passkeys.authenticationOptions(relyingParty(c), c.req.header("CF-Connecting-IP") ?? null),
      200,
    ),
  )
  .openapi(routes.loginVerify, async (c) => {
    const { token, user } = await c.var.services.passkeys.authenticate(
      relyingParty(c),
      c.req.valid("json"),
      c.req.header("CF-Connecting-IP") ?? null,
      deviceOf(c.req.raw),
    );
    for (const cookie of await setSessionCookies(token, user.id, configOf(c.env).sessionSecret))
      c.header("Set-Cookie", cookie, { append: true });
    return c.json({ token, user: toPublicUser(user) }, 200);
  });
