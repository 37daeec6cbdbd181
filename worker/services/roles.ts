import type { Env } from "#worker/env.ts";

/** ADMIN_EMAILS (comma-separated, any case) names the accounts that are admins from sign-up on. */
export function roleForNewAccount(env: Env, email: string): "user" | "admin" {
  const admins = (env.ADMIN_EMAILS ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  return admins.includes(email.trim().toLowerCase()) ? "admin" : "user";
}
