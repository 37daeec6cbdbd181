import { configOf } from "#worker/config.ts";
import { Hono } from "hono";
import { clearSessionCookie, deviceOf, setSessionCookies } from "#worker/auth/cookie.ts";
import { clearReauthCookie, readReauth } from "#worker/auth/reauth.ts";
import { deviceLabel } from "#worker/services/accounts/settings.ts";
import { toPublicUser } from "#worker/services/accounts/model.ts";
import { confirmerOf } from "#worker/services/accounts/fresh-start.ts";
import { readJson } from "#worker/api/body.ts";
import type { ApiContext, ApiEnv } from "#worker/api/context.ts";
import { attachment } from "#worker/services/export/format.ts";

/** The relying party of a WebAuthn ceremony: the origin the request came to (its host is the RP ID). */
const relyingParty = (c: ApiContext) => ({ origin: new URL(c.req.url).origin });

/**
 * Account settings under /api/auth (the /settings page calls the same services): password, sessions,
 * the data download, deleting the account, and passkeys. Everything here is the caller's own account.
 */
export const accountApi = new Hono<ApiEnv>()
  .post("/change-password", async (c) => {
    const result = await c.var.services.account.changePassword(
      c.var.user,
      c.var.sessionId,
      await readJson(c),
      new URL(c.req.url).origin,
    );
    return c.json(result);
  })
  .post("/change-email", async (c) => {
    const body = await readJson(c);
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
  .post("/confirm-email-change", async (c) => {
    const body = await readJson(c);
    const confirmer = confirmerOf(c.var.user, c.var.sessionId);
    const { email, accountReset } = await c.var.services.emailChange.confirm(
      body.token,
      new URL(c.req.url).origin,
      confirmer,
    );
    return c.json({ modifiedCount: 1, email, accountReset });
  })
  // The public contact address shown in place of the sign-in address (decision 048): {contactEmail}, "" for none.
  .put("/contact-email", async (c) =>
    c.json(await c.var.services.account.setContactEmail(c.var.user, await readJson(c))),
  )
  .get("/sessions", async (c) => c.json(await c.var.services.account.listSessions(c.var.user, c.var.sessionId)))
  .post("/sessions/end-others", async (c) =>
    c.json(await c.var.services.account.endOtherSessions(c.var.user, c.var.sessionId)),
  )
  .delete("/sessions/:id", async (c) => c.json(await c.var.services.account.endSession(c.var.user, c.req.param("id"))))
  .get("/export", async (c) => {
    const { filename, body } = await c.var.services.dataExport.create(c.var.user);
    return new Response(body, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": attachment(filename),
        "Cache-Control": "private, no-store",
      },
    });
  })
  .delete("/account", async (c) => {
    const body = c.req.header("Content-Type") ? await readJson(c) : {};
    const secret = configOf(c.env).sessionSecret;
    const googleReauthAt = await readReauth(c.req.raw, secret, c.var.user?.id);
    const result = await c.var.services.account.deleteAccount(
      c.var.user,
      { password: body.password, googleReauthAt },
      new URL(c.req.url).origin,
    );
    c.header("Set-Cookie", clearSessionCookie());
    c.header("Set-Cookie", clearReauthCookie(), { append: true });
    return c.json(result);
  })
  .get("/passkeys", async (c) => c.json(await c.var.services.passkeys.list(c.var.user)))
  .post("/passkeys/register/options", async (c) =>
    c.json(await c.var.services.passkeys.registrationOptions(c.var.user, relyingParty(c))),
  )
  .post("/passkeys/register/verify", async (c) =>
    c.json(
      await c.var.services.passkeys.register(
        c.var.user,
        relyingParty(c),
        await readJson(c),
        deviceLabel(c.req.header("User-Agent") ?? null),
      ),
      201,
    ),
  )
  .delete("/passkeys/:id", async (c) => c.json(await c.var.services.passkeys.remove(c.var.user, c.req.param("id"))))
  .post("/passkeys/login/options", async (c) =>
    c.json(
      await c.var.services.passkeys.authenticationOptions(relyingParty(c), c.req.header("CF-Connecting-IP") ?? null),
    ),
  )
  .post("/passkeys/login/verify", async (c) => {
    const { token, user } = await c.var.services.passkeys.authenticate(
      relyingParty(c),
      await readJson(c),
      c.req.header("CF-Connecting-IP") ?? null,
      deviceOf(c.req.raw),
    );
    for (const cookie of await setSessionCookies(token, user.id, configOf(c.env).sessionSecret))
      c.header("Set-Cookie", cookie, { append: true });
    return c.json({ token, user: toPublicUser(user) });
  });
