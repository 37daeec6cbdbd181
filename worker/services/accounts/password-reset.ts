import { and, eq, isNull } from "drizzle-orm";
import { hashPassword, passwordPolicyError, passwordProblem } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import type { AccountTokenService } from "#worker/services/accounts/tokens.ts";
import type { MailClient } from "#worker/services/accounts/email-verification.ts";
import { RateLimited, ValidationError } from "#worker/services/shared/errors.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import { dropUnprovenPasskeys } from "#worker/services/accounts/passkeys.ts";
import { roleOnVerifiedEmail } from "#worker/services/accounts/roles.ts";
import { emailField, parse } from "#worker/services/shared/validation.ts";
import { z } from "zod";
import { logError } from "#worker/log.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/**
 * Reset requests: per client address (refused with 429, whatever the address asked about) and per
 * email address (silently: no more mail to that inbox this hour, the same answer as always).
 */
export const FORGOT_LIMIT = { perAddress: 10, perEmail: 3, windowSeconds: 60 * 60 } as const;

export const RESET_TEXTS = {
  /** The one answer to every well-formed request: it says nothing about whether the account exists. */
  requested:
    "If an account exists for that email, we have sent it a link to choose a new password. It may take a few minutes to arrive; the link works for one hour.",
  done: "Your password has been changed and every device has been signed out. Sign in with your new password.",
} as const;

interface ResetData {
  email: string;
}

export const forgotSchema = z.object({ email: emailField() });

export function createPasswordResetService(k: Kernel, deps: { tokens: AccountTokenService; mailer: Mailer }) {
  // `defer`: work after the answer is sent (the request's waitUntil).
  const { db, env, rateLimit, defer } = k;
  const { tokens, mailer } = deps;
  const u = schema.users;

  /** The part that depends on whether the account exists: never awaited by the answer, so its timing tells nothing. */
  async function mailResetLink(email: string, origin: string | null | undefined, now: number): Promise<void> {
    const user = await db.query.users.findFirst({ where: eq(u.email, email) });
    if (!user) return;
    try {
      await rateLimit.hit(`forgot:${email}`, FORGOT_LIMIT.perEmail, FORGOT_LIMIT.windowSeconds);
    } catch (err) {
      if (err instanceof RateLimited) return;
      throw err;
    }
    const issued = await tokens.issue("password-reset", user.id, { email } satisfies ResetData, now);
    const mail = mailer.compose(
      {
        kind: "password-reset",
        to: email,
        params: { name: user.name, url: mailer.link(origin, "/reset-password", { token: issued.token }) },
        origin,
        expiresAt: issued.expiresAt,
      },
      now,
    );
    await db.batch([...issued.statements, ...mail.statements]);
    await mailer.deliver([mail], now);
  }

  return {
    /**
     * POST /api/auth/forgot-password: the same answer whether or not the account exists. Mail goes
     * only to an existing account, at most FORGOT_LIMIT.perEmail an hour.
     */
    async request(input: unknown, client: MailClient = {}, now = Date.now()): Promise<{ message: string }> {
      const { email } = parse(forgotSchema, input);
      if (client.address)
        await rateLimit.hit(
          `forgot-address:${client.address.slice(0, 64)}`,
          FORGOT_LIMIT.perAddress,
          FORGOT_LIMIT.windowSeconds,
        );
      defer(mailResetLink(email, client.origin, now).catch((err: unknown) => logError("forgot-password failed", err)));
      return { message: RESET_TEXTS.requested };
    },

    /** Whether a reset link can still be used (the page shows its form, or says why not). */
    async check(token: unknown, now = Date.now()): Promise<{ email: string }> {
      const { data } = await tokens.inspect<ResetData>("password-reset", token, now);
      return { email: data.email };
    },

    /**
     * POST /api/auth/reset-password: sets the new password, ends every session, voids other pending
     * links and tells the owner by mail, in one batch with using up the token. It also proves the
     * address (the link reached it), so the email counts as verified. A Google-only account gets a password.
     */
    async reset(input: unknown, client: MailClient = {}, now = Date.now()): Promise<{ message: string }> {
      const body = (input ?? {}) as { token?: unknown; password?: unknown };
      const { userId, data } = await tokens.inspect<ResetData>("password-reset", body.token, now);
      const problem = passwordProblem(body.password);
      if (problem) throw passwordPolicyError(problem);
      const user = await db.query.users.findFirst({ where: eq(u.id, userId) });
      if (!user || user.email !== data.email) {
        throw new ValidationError(
          { token: "This link was for an earlier email address of your account." },
          "This link was for an earlier email address of your account. Ask for a new one.",
          "token-invalid",
        );
      }
      const passwordHash = await hashPassword(body.password as string);
      let mailed: ReturnType<Mailer["compose"]> | undefined;
      await tokens.redeem<ResetData>(
        "password-reset",
        body.token,
        (claim) => {
          mailed = mailer.compose(
            {
              kind: "password-changed",
              to: user.email,
              params: { name: user.name, url: mailer.link(client.origin, "/login") },
              origin: client.origin,
            },
            now,
            claim.guard,
          );
          return [
            db
              .update(u)
              .set({
                passwordHash,
                emailVerifiedAt: user.emailVerifiedAt ?? now,
                role: roleOnVerifiedEmail(env, user.email),
                updatedAt: now,
              })
              .where(and(eq(u.id, user.id), eq(u.email, data.email), claim.guard)),
            db.delete(schema.sessions).where(and(eq(schema.sessions.userId, user.id), claim.guard)),
            // A passkey added before the address was proven is not the owner's (a squatter's, say).
            dropUnprovenPasskeys(db, user.id, data.email, claim.guard),
            db
              .delete(schema.accountTokens)
              .where(and(eq(schema.accountTokens.userId, user.id), isNull(schema.accountTokens.usedAt), claim.guard)),
            ...mailed.statements,
          ];
        },
        now,
      );
      // Locked out by failed guesses? The new password works at once.
      await rateLimit.reset(`login:${user.email}`);
      if (mailed) await mailer.deliver([mailed], now);
      return { message: RESET_TEXTS.done };
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
