import { SignJWT, jwtVerify, errors as joseErrors } from "jose";

const ISSUER = "edge-blog";
const AUDIENCE = "edge-blog:session";
/**
 * A session's absolute lifetime: 30 days from sign-in, however active. Logging out, "sign out
 * everywhere", a password change or reset, deleting the user, or the idle timeout end it earlier
 * (see services/sessions).
 */
export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;
/** A session unused for this long is over (its last request is noted at most once a minute). */
export const SESSION_IDLE_SECONDS = 60 * 60 * 24 * 7;
/** How often a session's last_seen_at is written at most. */
export const SESSION_TOUCH_SECONDS = 60;

export interface SessionClaims {
  /** user id */
  sub: string;
  /** session id: a row in `sessions`, so a session can be revoked before it expires */
  sid: string;
  email: string;
}

function key(secret: string | undefined): Uint8Array {
  if (!secret || secret.length < 32) {
    throw new Error("SESSION_SECRET must be set to at least 32 characters (see .dev.vars.example).");
  }
  return new TextEncoder().encode(secret);
}

export async function signSession(secret: string | undefined, claims: SessionClaims, ttlSeconds = SESSION_TTL_SECONDS) {
  return (
    new SignJWT({ sid: claims.sid, email: claims.email })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      // Each token is distinct, even two minted in the same second for one session.
      .setJti(crypto.randomUUID())
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(key(secret))
  );
}

/** The claims of a genuine, unexpired token; null for anything else (tampered, expired, alg none, other key). */
export async function verifySession(secret: string | undefined, token: string): Promise<SessionClaims | null> {
  if (!token || token.length > 4096) return null;
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || typeof payload.email !== "string")
      return null;
    return { sub: payload.sub, sid: payload.sid, email: payload.email };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return null;
    throw err;
  }
}
