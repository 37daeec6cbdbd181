import { expiredCookieHeader, readSignedCookie, signedCookieHeader } from "#worker/auth/cookie.ts";

/**
 * Proof of a fresh Google sign-in for a Google-only account (it has no password to ask for): the
 * Google callback with intent "reauth" sets it once Google names the same account; deleting the
 * account or changing its email accepts it for a few minutes (worker/services/accounts/settings.ts).
 * Signed with the session secret, bound to the account, and gone after five minutes.
 */
export const REAUTH_COOKIE = "reauth";
const REAUTH_MAX_AGE = 5 * 60;

export function reauthCookie(userId: string, secret: string, at = Date.now()): Promise<string> {
  return signedCookieHeader(REAUTH_COOKIE, `${userId}.${at}`, secret, { maxAge: REAUTH_MAX_AGE });
}

export const clearReauthCookie = () => expiredCookieHeader(REAUTH_COOKIE);

/** When this account last proved itself with Google in this browser, or null. */
export async function readReauth(
  request: Request,
  secret: string,
  userId: string | null | undefined,
): Promise<number | null> {
  if (!userId) return null;
  const value = await readSignedCookie(request, REAUTH_COOKIE, secret);
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (value.slice(0, dot) !== userId) return null;
  const at = Number(value.slice(dot + 1));
  return Number.isFinite(at) ? at : null;
}
