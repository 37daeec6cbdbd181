import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import type { AccountService, IdentityProof } from "#worker/services/accounts/settings.ts";
import type { AccountTokenService } from "#worker/services/accounts/tokens.ts";
import { Conflict, ValidationError } from "#worker/services/shared/errors.ts";
import { isUniqueViolation } from "#worker/services/shared/records.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { dropUnprovenPasskeys } from "#worker/services/accounts/passkeys.ts";
import { roleOnVerifiedEmail } from "#worker/services/accounts/roles.ts";
import {
  endOtherSessionsStatement,
  FRESH_START_FIELDS,
  freshStartStatements,
  isOwnSession,
  type Confirmer,
} from "#worker/services/accounts/fresh-start.ts";
import { emailField, parse } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Email-change links one account may ask for in an hour (each sends a message to an address it names). */
export const EMAIL_CHANGE_LIMIT = { attempts: 5, windowSeconds: 60 * 60 } as const;

export const EMAIL_CHANGE_TEXTS = {
  sent: (email: string) =>
    `We sent a confirmation link to ${email}. Your address changes when you open it (it may take a few minutes to arrive; the link works for 24 hours).`,
  same: "That is already your email address.",
  taken: "An account with this email already exists.",
  changed: (email: string) => `Your email address is now ${email}.`,
  passkeysGone: "Passkeys added for your old address were removed: add them again in Settings.",
  startedAfresh: (email: string) =>
    `The account's address is now ${email}. This browser was not signed in to it, so every device was signed out and its password and passkeys were removed: choose a new password with “Forgot your password?”.`,
  gone: "This email address was taken by another account meanwhile. Ask for a new link with another address.",
} as const;

interface ChangeData {
  oldEmail: string;
  newEmail: string;
}

const STALE = "This link is for an address change that no longer applies.";

export const requestSchema = z.object({ newEmail: emailField("New email") });

/**
 * Changing the account's email: the owner proves it (password or a fresh Google sign-in), a single-use
 * link goes to the new address, and opening it moves the account, its profile and its posts to the new
 * address (which is then verified); the old address is told. Until then nothing changes.
 */
export function createEmailChangeService(
  k: Kernel,
  deps: { account: AccountService; tokens: AccountTokenService; mailer: Mailer },
) {
  const { db, env, rateLimit, purge } = k;
  const { account, tokens, mailer } = deps;
  const u = schema.users;

  const taken = async (email: string) => Boolean(await db.query.users.findFirst({ where: eq(u.email, email) }));

  return {
    async request(
      actor: Actor | null,
      input: unknown,
      proof: IdentityProof,
      origin?: string | null,
    ): Promise<{ message: string; mailSent: boolean }> {
      const user = requireUser(actor);
      const { newEmail } = parse(requestSchema, input);
      if (newEmail === user.email)
        throw new ValidationError({ newEmail: EMAIL_CHANGE_TEXTS.same }, EMAIL_CHANGE_TEXTS.same);
      await account.prove(user, proof);
      await rateLimit.hit(`email-change:${user.id}`, EMAIL_CHANGE_LIMIT.attempts, EMAIL_CHANGE_LIMIT.windowSeconds);
      if (await taken(newEmail)) throw new Conflict(EMAIL_CHANGE_TEXTS.taken, "email-already-in-use");

      const now = Date.now();
      const issued = await tokens.issue(
        "email-change",
        user.id,
        { oldEmail: user.email, newEmail } satisfies ChangeData,
        now,
      );
      const mail = mailer.compose(
        {
          kind: "email-change",
          to: newEmail,
          params: { name: user.name, newEmail, url: mailer.link(origin, "/confirm-email", { token: issued.token }) },
          origin,
          expiresAt: issued.expiresAt,
        },
        now,
      );
      await db.batch([...issued.statements, ...mail.statements]);
      const mailSent = await mailer.deliver([mail], now);
      return { message: EMAIL_CHANGE_TEXTS.sent(newEmail), mailSent };
    },

    /** The change waiting for its link to be opened (the newest unused, unexpired one), for the settings page. */
    async pending(actor: Actor | null, now = Date.now()): Promise<{ newEmail: string; expiresAt: string } | null> {
      const user = requireUser(actor);
      const t = schema.accountTokens;
      const row = await db.query.accountTokens.findFirst({
        where: and(eq(t.userId, user.id), eq(t.kind, "email-change"), isNull(t.usedAt), gt(t.expiresAt, now)),
        orderBy: desc(t.createdAt),
        columns: { data: true, expiresAt: true },
      });
      if (!row) return null;
      const data = JSON.parse(row.data) as Partial<ChangeData>;
      // A link made for an address the account no longer has can never be used: nothing is pending.
      if (typeof data.newEmail !== "string" || data.oldEmail !== user.email) return null;
      return { newEmail: data.newEmail, expiresAt: new Date(row.expiresAt).toISOString() };
    },

    /**
     * What a link would do, without doing it (the GET page shows a button that posts it, so a mail
     * scanner following the link changes nothing): the account's name and current address, and whether
     * the browser opening it is signed in to that account. Refuses like `confirm`.
     */
    async check(token: unknown, confirmer: Confirmer | null = null) {
      const { data, userId } = await tokens.inspect<ChangeData>("email-change", token);
      const row = await db.query.users.findFirst({ where: eq(u.id, userId), columns: { name: true, email: true } });
      if (!row || row.email !== data.oldEmail) throw new ValidationError({ token: STALE }, undefined, "token-stale");
      return {
        name: row.name,
        oldEmail: row.email,
        newEmail: data.newEmail,
        ownSession: isOwnSession(confirmer, userId),
      };
    },

    /**
     * Uses the link (a POST): single-use, 24 hours, and only while the account still has the address it
     * had when the link was made. The account's address (and the copies its profile, posts and saves
     * carry) changes in the same batch as the token is used; a new address taken meanwhile refuses (409)
     * and leaves the token unused. The passkeys go (each was proven for another address), and so do the
     * account's other sessions; confirmed from a browser not signed in to the account, every way in goes
     * (`accountReset`): whoever asked for the change may not be the new address's owner.
     */
    async confirm(
      token: unknown,
      origin?: string | null,
      confirmer: Confirmer | null = null,
    ): Promise<{ userId: string; email: string; accountReset: boolean; passkeysRemoved: boolean }> {
      const { data, userId } = await tokens.inspect<ChangeData>("email-change", token);
      if (await taken(data.newEmail)) throw new Conflict(EMAIL_CHANGE_TEXTS.gone, "email-already-in-use");
      const now = Date.now();
      const own = isOwnSession(confirmer, userId);
      const p = schema.passkeys;
      const hadPasskeys = Boolean(
        await db.query.passkeys.findFirst({ where: eq(p.userId, userId), columns: { id: true } }),
      );
      let redeemed;
      try {
        redeemed = await tokens.redeem<ChangeData>("email-change", token, (claim) => {
          const admin = roleOnVerifiedEmail(env, claim.data.newEmail);
          // Everything after the move happens only if the move itself did, in this batch.
          const moved = sql`exists (select 1 from ${u} where ${u.id} = ${claim.userId} and ${u.email} = ${claim.data.newEmail})`;
          const guard = and(claim.guard, moved)!;
          return [
            db
              .update(u)
              .set({
                email: claim.data.newEmail,
                emailVerifiedAt: now,
                updatedAt: now,
                ...(admin ? { role: admin } : {}),
                ...(own ? {} : FRESH_START_FIELDS),
              })
              .where(and(eq(u.id, claim.userId), eq(u.email, claim.data.oldEmail), claim.guard)),
            db
              .update(schema.profiles)
              .set({ email: claim.data.newEmail, updatedAt: now })
              .where(and(eq(schema.profiles.userId, claim.userId), guard)),
            db
              .update(schema.blogs)
              .set({ email: claim.data.newEmail })
              .where(and(eq(schema.blogs.authorId, claim.userId), guard)),
            db
              .update(schema.savedBlogs)
              .set({ email: claim.data.newEmail })
              .where(and(eq(schema.savedBlogs.userId, claim.userId), guard)),
            // A passkey proves the address it was added for, which is not this one.
            dropUnprovenPasskeys(db, claim.userId, claim.data.newEmail, guard),
            ...(own
              ? [endOtherSessionsStatement(db, claim.userId, confirmer?.sessionId ?? null, guard)]
              : freshStartStatements(db, claim.userId, guard)),
          ];
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new Conflict(EMAIL_CHANGE_TEXTS.gone, "email-already-in-use");
        throw err;
      }
      const row = await db.query.users.findFirst({ where: eq(u.id, redeemed.userId) });
      if (!row || row.email !== redeemed.data.newEmail) {
        // The account's address changed another way since the link was made: the link is spent, nothing moved.
        throw new ValidationError({ token: STALE }, undefined, "token-stale");
      }
      // Posts carry their writer's address in the API's answers.
      await purge({ kind: "user.email" });
      await mailer.send({
        kind: "email-changed",
        to: redeemed.data.oldEmail,
        params: { name: row.name, newEmail: row.email, url: mailer.link(origin, "/") },
        origin,
      });
      return { userId: row.id, email: row.email, accountReset: !own, passkeysRemoved: hadPasskeys };
    },
  };
}

export type EmailChangeService = ReturnType<typeof createEmailChangeService>;
