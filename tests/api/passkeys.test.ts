import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { CHALLENGE_TTL_MS } from "#worker/services/accounts/passkey-ceremony.ts";
import { MAX_PASSKEYS } from "#worker/services/accounts/passkeys.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call, json } from "../support/http";
import { softAuthenticator } from "../support/webauthn";

type ErrorBody = { error: { code: string; message: string } };
type Row = Awaited<ReturnType<typeof makeUser>>;

const ORIGIN = "https://blog.test";
const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  call(path, {
    method,
    headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const challenges = async () => db().select().from(schema.webauthnChallenges);

let user: Row;
let headers: Record<string, string>;
let address: string;

beforeEach(async () => {
  user = await makeUser({ name: "Passkey Person" });
  headers = await asUser(user);
  // Each test signs in from its own address, so the per-client limits of one test do not reach another.
  address = `203.0.113.${Math.floor(Math.random() * 250)}`;
  await env.DB.prepare("delete from rate_limits where key like 'passkey-%'").run();
});

async function registerPasskey(device = undefined as Awaited<ReturnType<typeof softAuthenticator>> | undefined) {
  const authenticator = device ?? (await softAuthenticator(ORIGIN));
  const options = await json<{ challenge: string; user: { id: string }; rp: { id: string } }>(
    await send("POST", "/api/auth/passkeys/register/options", headers),
  );
  const response = await authenticator.register(options);
  const res = await send("POST", "/api/auth/passkeys/register/verify", headers, { response, name: "My laptop" });
  return { authenticator, options, res };
}

async function signInWith(authenticator: Awaited<ReturnType<typeof softAuthenticator>>) {
  const options = await json<{ challenge: string }>(
    await send("POST", "/api/auth/passkeys/login/options", { "CF-Connecting-IP": address }),
  );
  const response = await authenticator.authenticate(options);
  return send("POST", "/api/auth/passkeys/login/verify", { "CF-Connecting-IP": address }, { response });
}

describe("adding a passkey", () => {
  it("stores a passkey for a verified registration, bound to this site's host, the challenge used once", async () => {
    const { options, res } = await registerPasskey();
    expect(options.rp.id).toBe("blog.test");
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    const list = await json<{ _id: string; name: string }[]>(await send("GET", "/api/auth/passkeys", headers));
    expect(list).toEqual([expect.objectContaining({ _id: insertedId, name: "My laptop" })]);
    expect((await challenges()).some((c) => c.challenge === options.challenge)).toBe(false);
  });

  it("refuses an answer to a challenge that was never given, or given to another account", async () => {
    const authenticator = await softAuthenticator(ORIGIN);
    const forged = await authenticator.register({ challenge: "bm90LWEtcmVhbC1jaGFsbGVuZ2U", user: { id: "x" } });
    const res = await send("POST", "/api/auth/passkeys/register/verify", headers, { response: forged });
    expect(res.status).toBe(400);
    expect((await json<ErrorBody>(res)).error.code).toBe("challenge-invalid");

    const stranger = await makeUser();
    const theirs = await json<{ challenge: string; user: { id: string } }>(
      await send("POST", "/api/auth/passkeys/register/options", await asUser(stranger)),
    );
    const stolen = await authenticator.register(theirs);
    const refused = await send("POST", "/api/auth/passkeys/register/verify", headers, { response: stolen });
    expect(refused.status).toBe(400);
    expect(await db().select().from(schema.passkeys).where(eq(schema.passkeys.userId, user.id))).toHaveLength(0);
  });

  it("refuses a replayed answer (the challenge is single-use) and an expired challenge", async () => {
    const authenticator = await softAuthenticator(ORIGIN);
    const options = await json<{ challenge: string; user: { id: string } }>(
      await send("POST", "/api/auth/passkeys/register/options", headers),
    );
    const response = await authenticator.register(options);
    expect((await send("POST", "/api/auth/passkeys/register/verify", headers, { response })).status).toBe(201);
    const replay = await send("POST", "/api/auth/passkeys/register/verify", headers, { response });
    expect(replay.status).toBe(400);
    expect((await json<ErrorBody>(replay)).error.code).toBe("challenge-invalid");

    const later = await json<{ challenge: string; user: { id: string } }>(
      await send("POST", "/api/auth/passkeys/register/options", headers),
    );
    await db()
      .update(schema.webauthnChallenges)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(schema.webauthnChallenges.challenge, later.challenge));
    const expired = await send("POST", "/api/auth/passkeys/register/verify", headers, {
      response: await (await softAuthenticator(ORIGIN)).register(later),
    });
    expect(expired.status).toBe(400);
  });

  it("refuses an answer made for another origin", async () => {
    const authenticator = await softAuthenticator(ORIGIN);
    const options = await json<{ challenge: string; user: { id: string } }>(
      await send("POST", "/api/auth/passkeys/register/options", headers),
    );
    const response = await authenticator.register(options, "https://evil.test");
    const res = await send("POST", "/api/auth/passkeys/register/verify", headers, { response });
    expect(res.status).toBe(400);
    expect((await json<ErrorBody>(res)).error.code).toBe("passkey-not-verified");
  });

  it("refuses malformed answers with 400, never 500", async () => {
    for (const body of [
      {},
      { response: "x" },
      { response: { id: "a", rawId: "a", type: "public-key", response: {} } },
    ]) {
      const res = await send("POST", "/api/auth/passkeys/register/verify", headers, body);
      expect(res.status).toBe(400);
    }
  });

  it("keeps challenges short-lived and at most " + MAX_PASSKEYS + " passkeys per account", async () => {
    const before = Date.now();
    const options = await json<{ challenge: string }>(
      await send("POST", "/api/auth/passkeys/register/options", headers),
    );
    const row = (await challenges()).find((c) => c.challenge === options.challenge)!;
    expect(row.userId).toBe(user.id);
    expect(row.expiresAt).toBeLessThanOrEqual(Date.now() + CHALLENGE_TTL_MS);
    expect(row.expiresAt).toBeGreaterThanOrEqual(before + CHALLENGE_TTL_MS);
    for (let i = 0; i < MAX_PASSKEYS; i++)
      await db()
        .insert(schema.passkeys)
        .values({ id: `cred-${user.id}-${i}`, userId: user.id, name: "k", publicKey: "AA" });
    const full = await send("POST", "/api/auth/passkeys/register/options", headers);
    expect(full.status).toBe(409);
  });
});

describe("signing in with a passkey", () => {
  it("signs in the passkey's account, with a session cookie and the counter moved on", async () => {
    const { authenticator } = await registerPasskey();
    const res = await signInWith(authenticator);
    expect(res.status).toBe(200);
    const body = await json<{ token: string; user: { _id: string; email: string } }>(res);
    expect(body.user._id).toBe(user.id);
    expect(res.headers.getSetCookie().some((c) => c.includes(body.token))).toBe(true);
    const me = await send("GET", "/api/auth/me", { Authorization: `Bearer ${body.token}` });
    expect((await json<{ email: string }>(me)).email).toBe(user.email);
    const stored = await db().query.passkeys.findFirst({ where: eq(schema.passkeys.id, authenticator.id) });
    expect(stored?.counter).toBe(1);
    expect(stored?.lastUsedAt).not.toBeNull();
  });

  it("refuses a replayed sign-in answer (single-use challenge)", async () => {
    const { authenticator } = await registerPasskey();
    const options = await json<{ challenge: string }>(
      await send("POST", "/api/auth/passkeys/login/options", { "CF-Connecting-IP": address }),
    );
    const response = await authenticator.authenticate(options);
    const first = await send("POST", "/api/auth/passkeys/login/verify", { "CF-Connecting-IP": address }, { response });
    expect(first.status).toBe(200);
    const replay = await send("POST", "/api/auth/passkeys/login/verify", { "CF-Connecting-IP": address }, { response });
    expect(replay.status).toBe(400);
    expect((await json<ErrorBody>(replay)).error.code).toBe("challenge-invalid");
  });

  it("refuses a registration challenge used for a sign-in, a removed passkey and a wrong key", async () => {
    const { authenticator } = await registerPasskey();
    const registration = await json<{ challenge: string }>(
      await send("POST", "/api/auth/passkeys/register/options", headers),
    );
    const crossed = await authenticator.authenticate(registration);
    const res = await send(
      "POST",
      "/api/auth/passkeys/login/verify",
      { "CF-Connecting-IP": address },
      { response: crossed },
    );
    expect(res.status).toBe(400);

    // Another device claiming this passkey's id cannot sign with its key.
    const impostor = await softAuthenticator(ORIGIN);
    const options = await json<{ challenge: string }>(
      await send("POST", "/api/auth/passkeys/login/options", { "CF-Connecting-IP": address }),
    );
    const fake = { ...(await impostor.authenticate(options)), id: authenticator.id, rawId: authenticator.id };
    fake.response.userHandle = undefined;
    const wrongKey = await send(
      "POST",
      "/api/auth/passkeys/login/verify",
      { "CF-Connecting-IP": address },
      { response: fake },
    );
    expect(wrongKey.status).toBe(401);

    const removed = await send("DELETE", `/api/auth/passkeys/${authenticator.id}`, headers);
    expect(await json(removed)).toEqual({ deletedCount: 1 });
    const after = await signInWith(authenticator);
    expect(after.status).toBe(401);
    expect((await json<ErrorBody>(after)).error.code).toBe("passkey-unknown");
  });

  it("lets nobody remove another account's passkey (404)", async () => {
    const { authenticator } = await registerPasskey();
    const stranger = await makeUser();
    const res = await send("DELETE", `/api/auth/passkeys/${authenticator.id}`, await asUser(stranger));
    expect(res.status).toBe(404);
    expect(await db().query.passkeys.findFirst({ where: eq(schema.passkeys.id, authenticator.id) })).toBeDefined();
  });

  it("limits sign-in ceremonies per client address (429)", async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) {
      last = (await send("POST", "/api/auth/passkeys/login/options", { "CF-Connecting-IP": address })).status;
    }
    expect(last).toBe(429);
  });
});
