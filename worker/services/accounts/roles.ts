import type { Env } from "#worker/env.ts";

/** ADMIN_EMAILS (comma-separated, any case): the addresses that are admins once the address is proven theirs. */
export function isConfiguredAdmin(env: Env, email: string): boolean {
  const admins = (env.ADMIN_EMAILS ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  return admins.includes(email.trim().toLowerCase());
}

/**
 * The role an account gets when its email is verified (a link from /verify-email, a password reset, a
 * Google sign-in with a verified email): admin for an ADMIN_EMAILS address, else unchanged. A
 * password sign-up alone proves nothing about the address, so it always starts as "user".
 */
export function roleOnVerifiedEmail(env: Env, email: string): "admin" | undefined {
  return isConfiguredAdmin(env, email) ? "admin" : undefined;
}
