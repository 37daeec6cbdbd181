import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { PASSKEY_NEEDS_VERIFIED_EMAIL } from "#worker/services/texts.ts";
import { PASSKEY_OTHER_ADDRESS } from "#worker/services/accounts/passkeys.ts";
import { db, makeUser } from "../support/factories";
import { json } from "../support/http";
import { callWith, linkIn, mailbox, sendWith, type Mailbox } from "../support/mail";
import { softAuthenticator } from "../support/webauthn";

/**
 * The passkey takeover: someone signs up with an address that is not theirs (an ADMIN_EMAILS one),
 * adds a passkey before the address is proven, and signs in with it after the owner resets the password.
 */

type ErrorBody = { error: { code: string; message: string } };
type Authenticator = Awaited<ReturnType<typeof softAuthenticator>>;

const ORIGIN = "https://blog.test";
const PASSWORD = "correct horse";
let counter = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}@example.com`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const passkeysOf = (userId: string) => db().select().from(schema.passkeys).where(eq(schema.passkeys.userId, userId));
let address: string;
let box: Mailbox;

beforeEach(async () => {
  box = mailbox();
  address = `203.0.113.${Math.floor(Math.random() * 250)}`;
  await env.DB.prepare("delete from rate_limits where key like 'passkey-%' or key like 'forgot%'").run();
});

async function addPasskey(workerEnv: Cloudflare.Env, headers: Record<string, string>, device?: Authenticator) {
  const authenticator = device ?? (await softAuthenticator(ORIGIN));
  const optionsRes = await sendWith(workerEnv, "POST", "/api/auth/passkeys/register/options", {}, headers);
  if (optionsRes.status !== 200) return { authenticator, res: optionsRes };
  const options = await json<{ challenge: string; user: { id: string } }>(optionsRes);
  const response = await authenticator.register(options);
  const res = await sendWith(workerEnv, "POST", "/api/auth/passkeys/register/verify", { response }, headers);
  return { authenticator, res };
}

async function signInWith(workerEnv: Cloudflare.Env, authenticator: Authenticator) {
  const ip = { "CF-Connecting-IP": address };
  const options = await json<{ challenge: string }>(
    await sendWith(workerEnv, "POST", "/api/auth/passkeys/login/options", {}, ip),
  );
  const response = await authenticator.authenticate(options);
  return sendWith(workerEnv, "POST", "/api/auth/passkeys/login/verify", { response }, ip);
}

/**
 * A passkey added while the address was unproven, as accounts from before this rule hold them (and as
 * the migration marks them): registered through the real ceremony, then stamped as never proven.
 */
async function unprovenPasskey(workerEnv: Cloudflare.Env, userId: string, headers: Record<string, string>) {
  const u = schema.users;
  const [before] = await db().select({ at: u.emailVerifiedAt }).from(u).where(eq(u.id, userId));
  await db().update(u).set({ emailVerifiedAt: Date.now() }).where(eq(u.id, userId));
  const { authenticator, res } = await addPasskey(workerEnv, headers);
  expect(res.status).toBe(201);
  await db().update(u).set({ emailVerifiedAt: before!.at }).where(eq(u.id, userId));
  await db()
    .update(schema.passkeys)
    .set({ addressProvenAt: null, provenEmail: null })
    .where(eq(schema.passkeys.id, authenticator.id));
  return authenticator;
}

async function resetByMail(workerEnv: Cloudflare.Env, email: string, password: string) {
  const asked = await sendWith(workerEnv, "POST", "/api/auth/forgot-password", { email });
  expect(asked.status).toBe(200);
  const token = linkIn(box.to(email).at(-1), "/reset-password").searchParams.get("token");
  const done = await sendWith(workerEnv, "POST", "/api/auth/reset-password", { token, password });
  expect(done.status).toBe(200);
}

describe("passkeys need a proven address", () => {
  it("an account whose address is not confirmed cannot add one: 403 email-not-verified with the reason, nothing stored", async () => {
    const squatter = await makeUser({ emailVerifiedAt: null });
    const headers = bearer(await sessionToken(squatter));
    const options = await sendWith(box.env(), "POST", "/api/auth/passkeys/register/options", {}, headers);
    expect(options.status).toBe(403);
    expect(await json<ErrorBody>(options)).toEqual({
      error: { code: "email-not-verified", message: PASSKEY_NEEDS_VERIFIED_EMAIL },
    });

    // Nor by answering a challenge handed out while it was verified (the check is made at both steps).
    await db().update(schema.users).set({ emailVerifiedAt: Date.now() }).where(eq(schema.users.id, squatter.id));
    const given = await json<{ challenge: string; user: { id: string } }>(
      await sendWith(box.env(), "POST", "/api/auth/passkeys/register/options", {}, headers),
    );
    await db().update(schema.users).set({ emailVerifiedAt: null }).where(eq(schema.users.id, squatter.id));
    const response = await (await softAuthenticator(ORIGIN)).register(given);
    const verify = await sendWith(box.env(), "POST", "/api/auth/passkeys/register/verify", { response }, headers);
    expect(verify.status).toBe(403);
    expect((await json<ErrorBody>(verify)).error.code).toBe("email-not-verified");
    expect(await passkeysOf(squatter.id)).toHaveLength(0);
  });

  it("a passkey added once the address is proven records when it was proven", async () => {
    const user = await makeUser();
    const { res, authenticator } = await addPasskey(box.env(), bearer(await sessionToken(user)));
    expect(res.status).toBe(201);
    const [row] = await passkeysOf(user.id);
    expect(row).toMatchObject({ id: authenticator.id, addressProvenAt: user.emailVerifiedAt, provenEmail: user.email });
  });

  it("the takeover: a squatter on an ADMIN_EMAILS address cannot add a passkey, and one from before is gone after the owner's reset", async () => {
    const owner = fresh("owner");
    const adminEnv = box.env({ ADMIN_EMAILS: owner });
    const signup = await sendWith(adminEnv, "POST", "/api/auth/register", {
      name: "Squatter",
      email: owner,
      password: PASSWORD,
    });
    expect(signup.status).toBe(201);
    const { token, user } = await json<{ token: string; user: { _id: string; role: string } }>(signup);
    expect(user.role).toBe("user");
    expect((await addPasskey(adminEnv, bearer(token))).res.status).toBe(403);

    // One from before the rule, never proven for any address, opens nothing even before the reset.
    const legacy = await unprovenPasskey(adminEnv, user._id, bearer(token));
    const before = await signInWith(adminEnv, legacy);
    expect(before.status).toBe(401);
    expect((await json<ErrorBody>(before)).error.code).toBe("passkey-other-address");

    await resetByMail(adminEnv, owner, "the owner's own password");
    const [row] = await db().select().from(schema.users).where(eq(schema.users.id, user._id));
    expect(row).toMatchObject({ role: "admin", emailVerifiedAt: expect.any(Number) });
    expect(await passkeysOf(user._id)).toHaveLength(0);
    const again = await signInWith(adminEnv, legacy);
    expect(again.status).toBe(401);
    expect((await json<ErrorBody>(again)).error.code).toBe("passkey-unknown");
    expect((await callWith(adminEnv, "/api/users", { headers: bearer(token) })).status).toBe(401);
  });

  it("a reset keeps the passkeys added after the address was proven", async () => {
    const user = await makeUser({ email: fresh("keeper"), passwordHash: await hashPassword(PASSWORD, 1000) });
    const headers = bearer(await sessionToken(user));
    const proven = (await addPasskey(box.env(), headers)).authenticator;
    await unprovenPasskey(box.env(), user.id, headers);
    await resetByMail(box.env(), user.email, "a new password 2");
    expect((await passkeysOf(user.id)).map((p) => p.id)).toEqual([proven.id]);
    expect((await signInWith(box.env(), proven)).status).toBe(200);
  });

  it("an email change removes every passkey, each proven for the old address", async () => {
    const user = await makeUser({ email: fresh("mover"), passwordHash: await hashPassword(PASSWORD, 1000) });
    const headers = bearer(await sessionToken(user));
    const proven = (await addPasskey(box.env(), headers)).authenticator;
    await unprovenPasskey(box.env(), user.id, headers);
    const target = fresh("moved");
    const asked = await sendWith(
      box.env(),
      "POST",
      "/api/auth/change-email",
      { newEmail: target, password: PASSWORD },
      headers,
    );
    expect(asked.status).toBe(202);
    const token = linkIn(box.to(target)[0], "/confirm-email").searchParams.get("token");
    expect((await sendWith(box.env(), "POST", "/api/auth/confirm-email-change", { token }, headers)).status).toBe(200);
    expect(await passkeysOf(user.id)).toHaveLength(0);
    const refused = await signInWith(box.env(), proven);
    expect(refused.status).toBe(401);
  });

  it("a passkey signs in only while the account has the address it was proven for", async () => {
    const user = await makeUser({ email: fresh("tied") });
    const { authenticator } = await addPasskey(box.env(), bearer(await sessionToken(user)));
    expect((await signInWith(box.env(), authenticator)).status).toBe(200);
    // The address moved by a way that left the row in place (as a race with the change's batch would).
    await db()
      .update(schema.users)
      .set({ email: fresh("elsewhere") })
      .where(eq(schema.users.id, user.id));
    const res = await signInWith(box.env(), authenticator);
    expect(res.status).toBe(401);
    expect(await json<ErrorBody>(res)).toEqual({
      error: { code: "passkey-other-address", message: PASSKEY_OTHER_ADDRESS },
    });
  });

  it("a reset removes a passkey proven for an earlier address of the account", async () => {
    const user = await makeUser({ email: fresh("earlier"), passwordHash: await hashPassword(PASSWORD, 1000) });
    const headers = bearer(await sessionToken(user));
    const kept = (await addPasskey(box.env(), headers)).authenticator;
    const old = (await addPasskey(box.env(), headers)).authenticator;
    await db()
      .update(schema.passkeys)
      .set({ provenEmail: fresh("old") })
      .where(eq(schema.passkeys.id, old.id));
    await resetByMail(box.env(), user.email, "a new password 3");
    expect((await passkeysOf(user.id)).map((p) => p.id)).toEqual([kept.id]);
  });

  it("signing out everywhere else removes the passkeys added before the address was proven", async () => {
    const user = await makeUser();
    const headers = bearer(await sessionToken(user));
    const proven = (await addPasskey(box.env(), headers)).authenticator;
    await unprovenPasskey(box.env(), user.id, headers);
    expect(await passkeysOf(user.id)).toHaveLength(2);
    const res = await sendWith(box.env(), "POST", "/api/auth/sessions/end-others", {}, headers);
    expect(res.status).toBe(200);
    expect((await passkeysOf(user.id)).map((p) => p.id)).toEqual([proven.id]);
  });
});

async function sessionToken(user: { id: string; email: string }) {
  const { createServices } = await import("#worker/services/index.ts");
  return (await createServices(env).sessions.start(user)).token;
}
