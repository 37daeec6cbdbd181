import Bowser from "bowser";
import { z } from "zod";
import { eq, sql } from "drizzle-orm";
import { hashPassword, passwordProblem, PASSWORD_REQUIREMENTS, verifyPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { Conflict, NotFound, ValidationError } from "#worker/services/shared/errors.ts";
import type { ImageCleanup } from "#worker/services/images/cleanup.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { emailField, LIMITS, parse } from "#worker/services/shared/validation.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import type { SessionService, SessionSummary } from "#worker/services/accounts/sessions.ts";
import { dropUnprovenPasskeys } from "#worker/services/accounts/passkeys.ts";
import { eraseAccount, mailGoodbye, readHoldings, type AccountFederation } from "#worker/services/accounts/erase.ts";
import type { Kernel } from "#worker/services/kernel.ts";

type UserRow = typeof schema.users.$inferSelect;

/** A public contact address: an email, or "" (none). */
export const contactEmailInput = z.object({
  contactEmail: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : (v ?? "")),
    z
      .string({ error: "Please enter a valid email" })
      .max(LIMITS.email, { error: "Public contact address is too long." })
      .refine((v) => v === "" || emailField().safeParse(v).success, { error: "Please enter a valid email" })
      .transform((v) => v.toLowerCase()),
  ),
});

/** Wrong current passwords per account in /settings: 10 in 15 minutes, then 429 until the window ends. */
export const REAUTH_LIMIT = { attempts: 10, windowSeconds: 15 * 60 } as const;
/** A Google sign-in proves a Google-only account for this long (delete, change email). */
export const GOOGLE_REAUTH_MAX_AGE_MS = 5 * 60 * 1000;

/** Whether a Google sign-in at `at` still proves a Google-only account's owner (the settings page asks too). */
export function googleProofFresh(at: number | null | undefined, now = Date.now()): boolean {
  return typeof at === "number" && now - at <= GOOGLE_REAUTH_MAX_AGE_MS && at <= now + 60_000;
}

/**
 * How a person proves, again, that they are the account's owner before a lasting change: the current
 * password, or (for an account without one) a Google sign-in to the same Google account moments ago.
 * `googleReauthAt` is what the adapter read from the signed cookie the Google callback set.
 */
export interface IdentityProof {
  password?: unknown;
  googleReauthAt?: number | null;
}

/** A signed-in session as the settings page and GET /api/auth/sessions show it. */
export interface SessionView {
  _id: string;
  current: boolean;
  device: string;
  userAgent: string | null;
  location: string | null;
  createdAt: number;
  lastSeenAt: number;
}

export const WRONG_PASSWORD = "The current password is not correct.";
export const NO_PASSWORD_YET =
  "Your account signs in with Google and has no password yet. Use “Forgot password” on the sign-in page to set one.";
export const GOOGLE_REAUTH_NEEDED = "Confirm with Google that it is you (it counts for 5 minutes), then try again.";

/** "Chrome 131 on macOS" from a User-Agent header; "Unknown device" when there is none. */
export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const os = parsed.os.name ?? "";
  const kind = parsed.platform.type && parsed.platform.type !== "desktop" ? ` (${parsed.platform.type})` : "";
  if (!browser && !os) return userAgent.slice(0, 60);
  return `${browser || "A browser"}${os ? ` on ${os}` : ""}${kind}`;
}

function placeOf(s: SessionSummary): string | null {
  const place = [s.city, s.country].filter(Boolean).join(", ");
  if (place) return s.colo ? `${place} (via ${s.colo})` : place;
  return s.colo ? `Cloudflare ${s.colo}` : null;
}

export function createAccountService(
  k: Kernel,
  deps: {
    sessions: SessionService;
    imageCleanup: Pick<ImageCleanup, "release">;
    mailer: Mailer;
    federation?: AccountFederation;
  },
) {
  const { db, rateLimit, purge } = k;
  const { sessions, mailer } = deps;

  async function current(actor: Actor | null): Promise<UserRow> {
    const user = requireUser(actor);
    const row = await db.query.users.findFirst({ where: eq(schema.users.id, user.id) });
    if (!row) throw new NotFound("User not found.");
    return row;
  }

  /**
   * The owner proves it again: the password for accounts that have one (wrong ones counted and
   * limited per account), a fresh Google sign-in for Google-only accounts.
   */
  async function prove(row: UserRow, proof: IdentityProof, field = "password"): Promise<void> {
    if (!row.passwordHash) {
      if (!row.googleSub || !googleProofFresh(proof.googleReauthAt)) {
        throw new ValidationError({ [field]: GOOGLE_REAUTH_NEEDED }, GOOGLE_REAUTH_NEEDED, "reauth-required");
      }
      return;
    }
    const key = `reauth:${row.id}`;
    await rateLimit.check(key, REAUTH_LIMIT.attempts, REAUTH_LIMIT.windowSeconds);
    const password = proof.password;
    const ok =
      typeof password === "string" && password.length > 0 && password.length <= 1024
        ? await verifyPassword(password, row.passwordHash)
        : false;
    if (!ok) {
      await rateLimit.count(key, REAUTH_LIMIT.windowSeconds);
      throw new ValidationError({ [field]: WRONG_PASSWORD }, WRONG_PASSWORD, "wrong-password");
    }
    await rateLimit.reset(key);
  }

  return {
    prove: async (actor: Actor | null, proof: IdentityProof) => prove(await current(actor), proof),

    /** How the account signs in, for the settings page (never the hash itself). */
    async signInMethods(
      actor: Actor | null,
    ): Promise<{ hasPassword: boolean; google: boolean; emailVerified: boolean }> {
      const row = await current(actor);
      return {
        hasPassword: Boolean(row.passwordHash),
        google: Boolean(row.googleSub),
        emailVerified: row.emailVerifiedAt !== null,
      };
    },

    /**
     * The public contact address (decision 048): what readers see in a post record's `email` in place of
     * the sign-in address, and what `GET /api/blog?email=` finds a writer by. "" (the default) shows none.
     */
    async contactEmail(actor: Actor | null): Promise<string> {
      return (await current(actor)).contactEmail;
    },

    async setContactEmail(actor: Actor | null, input: { contactEmail?: unknown }): Promise<{ modifiedCount: number }> {
      const row = await current(actor);
      const { contactEmail } = parse(contactEmailInput, input);
      if (contactEmail === row.contactEmail) return { modifiedCount: 0 };
      await db.update(schema.users).set({ contactEmail }).where(eq(schema.users.id, row.id));
      // Wherever the writer's posts are (the API's records carry it).
      await purge({ kind: "user.email" });
      return { modifiedCount: 1 };
    },

    /**
     * Changes the password after checking the current one, then ends every other session of the
     * account (a thief's session ends with the old password); the session asking stays signed in.
     */
    async changePassword(
      actor: Actor | null,
      sessionId: string | null,
      input: unknown,
      origin?: string | null,
    ): Promise<{ modifiedCount: number; sessionsEnded: number }> {
      const row = await current(actor);
      const body = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
      if (!row.passwordHash)
        throw new ValidationError({ currentPassword: NO_PASSWORD_YET }, NO_PASSWORD_YET, "no-password");
      const problem = passwordProblem(body.newPassword);
      if (problem) {
        throw new ValidationError(
          { newPassword: problem },
          `The new password does not meet the requirements. ${PASSWORD_REQUIREMENTS}`,
          "password-does-not-meet-requirements",
        );
      }
      await prove(row, { password: body.currentPassword }, "currentPassword");
      const passwordHash = await hashPassword(body.newPassword as string);
      await db.update(schema.users).set({ passwordHash, updatedAt: Date.now() }).where(eq(schema.users.id, row.id));
      const sessionsEnded = sessionId ? await sessions.endAllExcept(row.id, sessionId) : await sessions.endAll(row.id);
      // The owner hears of it (someone else who knew the password is found out); mail never fails the change.
      await mailer.send({
        kind: "password-changed-in-settings",
        to: row.email,
        params: { name: row.name, url: mailer.link(origin, "/") },
        origin,
      });
      return { modifiedCount: 1, sessionsEnded };
    },

    /** The account's signed-in sessions, the one asking marked `current`, most recently used first. */
    async listSessions(actor: Actor | null, sessionId: string | null): Promise<SessionView[]> {
      const user = requireUser(actor);
      const rows = await sessions.listForUser(user.id);
      return rows.map((s) => ({
        _id: s.id,
        current: s.id === sessionId,
        device: deviceLabel(s.userAgent),
        userAgent: s.userAgent,
        location: placeOf(s),
        createdAt: s.createdAt,
        lastSeenAt: s.lastSeenAt,
      }));
    },

    /**
     * "Sign out everywhere else": every session of the account but the one asking, and every passkey
     * added before the address was proven (a way back in that is not surely the owner's).
     */
    async endOtherSessions(actor: Actor | null, sessionId: string | null): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      await dropUnprovenPasskeys(db, user.id, user.email);
      const deletedCount = sessionId ? await sessions.endAllExcept(user.id, sessionId) : await sessions.endAll(user.id);
      return { deletedCount };
    },

    /** Signs out one of the account's own sessions (never someone else's: 404 for those). */
    async endSession(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      if (typeof id !== "string" || id.length === 0 || id.length > 64) throw new NotFound("No such session.");
      if (!(await sessions.endForUser(user.id, id))) throw new NotFound("No such session.");
      return { deletedCount: 1 };
    },

    /**
     * Deletes the account asking, after the owner proves it again; what goes with it is what an
     * admin's delete takes (docs/decisions/001), and the email is free for a new account at once.
     * The last admin cannot leave (checked in the delete statement itself, so two cannot race).
     */
    async deleteAccount(
      actor: Actor | null,
      proof: IdentityProof,
      origin?: string | null,
    ): Promise<{ deletedCount: number }> {
      const row = await current(actor);
      await prove(row, proof);
      // The goodbye mail goes only to an address its owner proved; what it names is counted before it goes.
      const verified = row.emailVerifiedAt !== null;
      const held = verified ? await readHoldings(db, row.id) : undefined;
      const guard =
        row.role === "admin"
          ? sql`(select count(*) from ${schema.users} where ${schema.users.role} = 'admin') > 1`
          : undefined;
      const deletedCount = await eraseAccount(k, deps, row, guard);
      if (deletedCount === 0) {
        throw new Conflict(
          "You are the last admin: make someone else an admin before deleting your account.",
          "last-admin",
        );
      }
      if (held) await mailGoodbye(db, mailer, row, held, origin);
      return { deletedCount };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
