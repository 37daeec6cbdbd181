import { SignJWT, jwtVerify, errors as joseErrors } from "jose";

const ISSUER = "edge-blog";
const AUDIENCE = "edge-blog:session";
/** Sessions last 30 days; logging out or deleting the user ends them earlier (see services/sessions). */
export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;

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
  return new SignJWT({ sid: claims.sid, email: claims.email })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key(secret));
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
