import { configOf } from "#worker/config.ts";
import { clientAddressKey } from "#worker/services/client-address.ts";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { and, asc, count, eq, isNull, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { Conflict, Forbidden, NotFound, Unauthorized, ValidationError } from "#worker/services/shared/errors.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import type { SessionDevice, SessionService } from "#worker/services/accounts/sessions.ts";
import { PASSKEY_NEEDS_VERIFIED_EMAIL } from "#worker/services/texts.ts";
import {
  authenticationSchema,
  createChallengeStore,
  parseBody,
  PASSKEY_CHALLENGE_INVALID,
  PASSKEY_NOT_VERIFIED,
  registrationSchema,
} from "#worker/services/accounts/passkey-ceremony.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 10;
/** Sign-in ceremonies (options and answers) one client address may start in 15 minutes. */
export const PASSKEY_SIGN_IN_LIMIT = { attempts: 30, windowSeconds: 15 * 60 } as const;
/** Registrations one account may start in 15 minutes. */
export const PASSKEY_REGISTER_LIMIT = { attempts: 20, windowSeconds: 15 * 60 } as const;

export const PASSKEY_UNKNOWN = "This passkey is not registered here (it may have been removed). Sign in another way.";
export const PASSKEY_OTHER_ADDRESS =
  "This passkey was added for an earlier email address of this account. Sign in another way, then add it again in Settings.";

/**
 * Removes the account's passkeys not proven for `email` (added before any address was proven, or while
 * the account had another address), as a statement to batch with the change that calls for it (a
 * password reset, an email change, "sign out everywhere"): whoever held the address before, a squatter
 * or the account's previous owner, must not keep a way in once the address's owner has it.
 */
export function dropUnprovenPasskeys(db: Db, userId: string, email: string, guard?: SQL) {
  const t = schema.passkeys;
  return db.delete(t).where(and(eq(t.userId, userId), or(isNull(t.provenEmail), ne(t.provenEmail, email)), guard));
}

/** Where the ceremony happens: the site's origin, and the RP ID (its host name) passkeys are bound to. */
export interface RelyingParty {
  origin: string;
}

/** A passkey as the settings page and GET /api/auth/passkeys show it (never its key). */
export interface PasskeyView {
  _id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  backedUp: boolean;
}

const rpIdOf = (rp: RelyingParty) => new URL(rp.origin).hostname;
// IPv6 by /64, and no address at all is one shared client (worker/services/client-address.ts).
const addressKey = (kind: string, address: string | null | undefined) => `${kind}:${clientAddressKey(address)}`;

export function createPasskeyService(k: Kernel, deps: { sessions: SessionService }) {
  const { db, env, rateLimit } = k;
  const { sessions } = deps;
  const t = schema.passkeys;

  const { storeChallenge, consumeChallenge } = createChallengeStore(k);

  /**
   * Only an account whose address is proven may add a passkey: a passkey outlives a password reset, so
   * one added to an address someone squatted would let them back in after the owner reset it. Read from
   * the table, not the session, so the proof is the one stored now. Answers when and for which address.
   */
  async function provenAt(userId: string): Promise<{ at: number; email: string }> {
    const row = await db.query.users.findFirst({
      where: eq(schema.users.id, userId),
      columns: { emailVerifiedAt: true, email: true },
    });
    if (!row?.emailVerifiedAt) throw new Forbidden(PASSKEY_NEEDS_VERIFIED_EMAIL, "email-not-verified");
    return { at: row.emailVerifiedAt, email: row.email };
  }

  return {
    async list(actor: Actor | null): Promise<PasskeyView[]> {
      const user = requireUser(actor);
      const rows = await db
        .select()
        .from(t)
        .where(eq(t.userId, user.id))
        .orderBy(asc(t.createdAt), asc(t.id))
        .limit(MAX_PASSKEYS);
      return rows.map((r) => ({
        _id: r.id,
        name: r.name,
        createdAt: r.createdAt,
        lastUsedAt: r.lastUsedAt,
        backedUp: r.backedUp,
      }));
    },

    /** Step 1 of adding a passkey: the options for navigator.credentials.create(), its challenge kept here. */
    async registrationOptions(actor: Actor | null, rp: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const user = requireUser(actor);
      await provenAt(user.id);
      await rateLimit.hit(
        `passkey-register:${user.id}`,
        PASSKEY_REGISTER_LIMIT.attempts,
        PASSKEY_REGISTER_LIMIT.windowSeconds,
      );
      const existing = await db.select({ id: t.id, transports: t.transports }).from(t).where(eq(t.userId, user.id));
      if (existing.length >= MAX_PASSKEYS)
        throw new Conflict(`You can keep up to ${MAX_PASSKEYS} passkeys. Remove one first.`, "too-many-passkeys");
      const options = await generateRegistrationOptions({
        rpName: configOf(env).siteName,
        rpID: rpIdOf(rp),
        userName: user.email,
        userDisplayName: user.name,
        userID: isoBase64URL.toBuffer(isoBase64URL.fromUTF8String(user.id)),
        attestationType: "none",
        excludeCredentials: existing.map((p) => ({ id: p.id, transports: JSON.parse(p.transports) as string[] })),
        // Discoverable, so "Sign in with a passkey" needs no email first.
        authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      });
      await storeChallenge(options.challenge, "register", user.id);
      return options;
    },

    /** Step 2: the authenticator's answer, checked against the challenge this account was given, stored as a passkey. */
    async register(actor: Actor | null, rp: RelyingParty, input: unknown, fallbackName = "Passkey") {
      const user = requireUser(actor);
      const proven = await provenAt(user.id);
      const { response, name } = parseBody(registrationSchema, input);
      const challenge = await consumeChallenge(response.response.clientDataJSON, "register", user.id);
      if (!challenge)
        throw new ValidationError(
          { response: PASSKEY_CHALLENGE_INVALID },
          PASSKEY_CHALLENGE_INVALID,
          "challenge-invalid",
        );
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rpIdOf(rp),
          requireUserVerification: false,
        });
      } catch {
        verified = null;
      }
      if (!verified?.verified)
        throw new ValidationError({ response: PASSKEY_NOT_VERIFIED }, PASSKEY_NOT_VERIFIED, "passkey-not-verified");
      const info = verified.registrationInfo;
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(t).where(eq(t.userId, user.id));
      if (n >= MAX_PASSKEYS)
        throw new Conflict(`You can keep up to ${MAX_PASSKEYS} passkeys. Remove one first.`, "too-many-passkeys");
      const inserted = await db
        .insert(t)
        .values({
          id: info.credential.id,
          userId: user.id,
          name: (name || fallbackName).slice(0, 60),
          publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
          counter: info.credential.counter,
          transports: JSON.stringify(info.credential.transports ?? []),
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          addressProvenAt: proven.at,
          provenEmail: proven.email,
        })
        .onConflictDoNothing()
        .returning({ id: t.id });
      if (!inserted[0]) throw new Conflict("This passkey is already registered.", "passkey-exists");
      return { insertedId: inserted[0].id };
    },

    async remove(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      if (typeof id !== "string" || id.length === 0 || id.length > 1024) throw new NotFound("No such passkey.");
      const gone = await db
        .delete(t)
        .where(and(eq(t.id, id), eq(t.userId, user.id)))
        .returning({ id: t.id });
      if (gone.length === 0) throw new NotFound("No such passkey.");
      return { deletedCount: 1 };
    },

    /** Sign-in step 1: options for navigator.credentials.get() with no account named (discoverable passkeys). */
    async authenticationOptions(
      rp: RelyingParty,
      address?: string | null,
    ): Promise<PublicKeyCredentialRequestOptionsJSON> {
      await rateLimit.hit(
        addressKey("passkey-sign-in", address),
        PASSKEY_SIGN_IN_LIMIT.attempts,
        PASSKEY_SIGN_IN_LIMIT.windowSeconds,
      );
      const options = await generateAuthenticationOptions({ rpID: rpIdOf(rp), userVerification: "preferred" });
      await storeChallenge(options.challenge, "authenticate", null);
      return options;
    },

    /**
     * Sign-in step 2: the signed challenge is checked against the stored passkey's public key; the
     * counter moves on (a cloned authenticator replaying an old count is refused by the library), and
     * a session starts for the passkey's account.
     */
    async authenticate(rp: RelyingParty, input: unknown, address?: string | null, device?: SessionDevice) {
      await rateLimit.check(
        addressKey("passkey-sign-in", address),
        PASSKEY_SIGN_IN_LIMIT.attempts,
        PASSKEY_SIGN_IN_LIMIT.windowSeconds,
      );
      const { response } = parseBody(authenticationSchema, input);
      const challenge = await consumeChallenge(response.response.clientDataJSON, "authenticate", null);
      if (!challenge)
        throw new ValidationError(
          { response: PASSKEY_CHALLENGE_INVALID },
          PASSKEY_CHALLENGE_INVALID,
          "challenge-invalid",
        );
      const passkey = await db.query.passkeys.findFirst({ where: eq(t.id, response.id) });
      if (!passkey) throw new Unauthorized(PASSKEY_UNKNOWN, "passkey-unknown");
      const handle = response.response.userHandle;
      if (handle && isoBase64URL.toUTF8String(handle) !== passkey.userId)
        throw new Unauthorized(PASSKEY_NOT_VERIFIED, "passkey-not-verified");
      let verified;
      try {
        verified = await verifyAuthenticationResponse({
          response: response as AuthenticationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rpIdOf(rp),
          credential: {
            id: passkey.id,
            publicKey: isoBase64URL.toBuffer(passkey.publicKey),
            counter: passkey.counter,
            transports: JSON.parse(passkey.transports) as string[],
          },
          requireUserVerification: false,
        });
      } catch {
        verified = null;
      }
      if (!verified?.verified) {
        await rateLimit.count(addressKey("passkey-sign-in", address), PASSKEY_SIGN_IN_LIMIT.windowSeconds);
        throw new Unauthorized(PASSKEY_NOT_VERIFIED, "passkey-not-verified");
      }
      await db
        .update(t)
        .set({
          counter: verified.authenticationInfo.newCounter,
          backedUp: verified.authenticationInfo.credentialBackedUp,
          lastUsedAt: Date.now(),
        })
        .where(eq(t.id, passkey.id));
      const user = await db.query.users.findFirst({ where: eq(schema.users.id, passkey.userId) });
      if (!user) throw new Unauthorized(PASSKEY_UNKNOWN, "passkey-unknown");
      // Tied to the address it was proven on: after an address change (or one added before any proof) it
      // opens nothing, even in the moment before the change's batch removes it.
      if (passkey.provenEmail === null || passkey.provenEmail !== user.email || user.emailVerifiedAt === null)
        throw new Unauthorized(PASSKEY_OTHER_ADDRESS, "passkey-other-address");
      const { token, expiresAt } = await sessions.start(user, device);
      return { token, expiresAt, user };
    },
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
