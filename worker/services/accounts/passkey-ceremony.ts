import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** The WebAuthn ceremony's two halves that are ours: the browser's answer, bounded, and single-use challenges. */

/** A challenge is good for one ceremony and this long. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const PASSKEY_NOT_VERIFIED = "The passkey could not be verified. Please try again.";
export const PASSKEY_CHALLENGE_INVALID = "This passkey request has expired or was already used. Please try again.";

// The browser's JSON, bounded: each part is base64url text, and none is long for a real authenticator.
const b64 = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/);
export const registrationSchema = z.object({
  name: z.string().trim().max(60).optional(),
  response: z.object({
    id: b64(1024),
    rawId: b64(1024),
    type: z.literal("public-key"),
    response: z.looseObject({ clientDataJSON: b64(8192), attestationObject: b64(32_768) }),
    clientExtensionResults: z.looseObject({}).default({}),
    authenticatorAttachment: z.string().max(32).optional(),
  }),
});
export const authenticationSchema = z.object({
  response: z.object({
    id: b64(1024),
    rawId: b64(1024),
    type: z.literal("public-key"),
    response: z.looseObject({
      clientDataJSON: b64(8192),
      authenticatorData: b64(8192),
      signature: b64(2048),
      userHandle: b64(512).optional(),
    }),
    clientExtensionResults: z.looseObject({}).default({}),
    authenticatorAttachment: z.string().max(32).optional(),
  }),
});

export function parseBody<T>(schemaOf: z.ZodType<T>, input: unknown): T {
  const result = schemaOf.safeParse(input);
  if (!result.success)
    throw new ValidationError({ response: PASSKEY_NOT_VERIFIED }, PASSKEY_NOT_VERIFIED, "passkey-invalid");
  return result.data;
}

/** The challenge the browser signed, read from its client data (the library checks everything else). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown };
    return typeof data.challenge === "string" && data.challenge.length <= 256 ? data.challenge : null;
  } catch {
    return null;
  }
}

/** The challenges handed out, each good for one ceremony: stored when given, taken out when answered. */
export function createChallengeStore(k: Kernel) {
  const { db } = k;
  const c = schema.webauthnChallenges;

  async function storeChallenge(challenge: string, kind: "register" | "authenticate", userId: string | null) {
    const now = Date.now();
    // Expired challenges go as new ones come: the table never holds more than a few minutes' worth.
    await db.batch([
      db.delete(c).where(lte(c.expiresAt, now)),
      db.insert(c).values({ challenge, kind, userId, expiresAt: now + CHALLENGE_TTL_MS }),
    ]);
  }

  /** Takes a challenge out of the table (single use); null when it is unknown, expired, used or someone else's. */
  async function consumeChallenge(clientDataJSON: string, kind: "register" | "authenticate", userId: string | null) {
    const challenge = challengeOf(clientDataJSON);
    if (!challenge) return null;
    const gone = await db
      .delete(c)
      .where(
        and(
          eq(c.challenge, challenge),
          eq(c.kind, kind),
          userId === null ? isNull(c.userId) : eq(c.userId, userId),
          gt(c.expiresAt, Date.now()),
        ),
      )
      .returning({ challenge: c.challenge });
    return gone[0]?.challenge ?? null;
  }

  return { storeChallenge, consumeChallenge };
}
