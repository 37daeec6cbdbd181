import { VERIFY_TEXTS } from "#worker/services/texts.ts";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "#worker/db.ts";
import type { AccountTokenService } from "#worker/services/accounts/tokens.ts";
import { Conflict, ValidationError } from "#worker/services/shared/errors.ts";
import type { Composed, Mailer } from "#worker/services/mail/mailer.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { roleOnVerifiedEmail } from "#worker/services/accounts/roles.ts";
import {
  FRESH_START_FIELDS,
  freshStartStatements,
  isOwnSession,
  type Confirmer,
} from "#worker/services/accounts/fresh-start.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Verification links one account may ask for again, and one client address, per hour. */
export const RESEND_LIMIT = { perAccount: 3, perAddress: 10, windowSeconds: 60 * 60 } as const;

interface VerifyData {
  email: string;
}

/** Who is asking, as far as limits and links go (worker/auth/cookie.ts's clientOf makes it). */
export interface MailClient {
  address?: string | null;
  /** The origin of the request, for links when SITE_URL is not set. */
  origin?: string | null;
}

export function createEmailVerificationService(k: Kernel, deps: { tokens: AccountTokenService; mailer: Mailer }) {
  const { db, env, rateLimit } = k;
  const { tokens, mailer } = deps;
  const u = schema.users;

  return {
    /**
     * The verification link for a new (or not yet verified) account: the statements that store its
     * token and queue its message, to batch with the change, and the message to `mailer.deliver` after.
     */
    async prepare(
      user: { id: string; name: string; email: string },
      origin: string | null | undefined,
      now = Date.now(),
      returnTo: string | null = null,
    ): Promise<{ statements: BatchItem<"sqlite">[]; mail: Composed; send: () => Promise<boolean> }> {
      const issued = await tokens.issue("verify-email", user.id, { email: user.email } satisfies VerifyData, now);
      const mail = mailer.compose(
        {
          kind: "verify-email",
          to: user.email,
          params: {
            name: user.name,
            // The page the person asked from: the confirmation page's Continue goes back there (the page
            // checks it again: only a path of this site, never elsewhere).
            url: mailer.link(origin, "/verify-email", {
              token: issued.token,
              ...(returnTo && returnTo !== "/" ? { redirectTo: returnTo } : {}),
            }),
          },
          origin,
          expiresAt: issued.expiresAt,
        },
        now,
      );
      return {
        statements: [...issued.statements, ...mail.statements],
        mail,
        send: () => mailer.deliver([mail], now),
      };
    },

    /**
     * Whether a link can still confirm an address, without using it: opening the link (GET) only shows a
     * button that posts it, so a mail scanner that follows links confirms nothing. Refuses like `verify`.
     */
    async check(token: unknown, confirmer: Confirmer | null = null, now = Date.now()) {
      const { data, userId } = await tokens.inspect<VerifyData>("verify-email", token, now);
      return { email: data.email, ownSession: isOwnSession(confirmer, userId) };
    },

    /**
     * Confirms with a verification link (a POST: the page's button, or the API): the address it was sent
     * to is marked verified (if it is still the account's address), and an ADMIN_EMAILS address becomes
     * admin now. Single-use, 24 hours. Confirmed from a browser not signed in to the account, the account
     * starts afresh (`accountReset`): whoever signed it up proved nothing, so their password, sessions,
     * passkeys and pending links go (fresh-start.ts), and the owner chooses a password by reset.
     */
    async verify(
      token: unknown,
      confirmer: Confirmer | null = null,
      now = Date.now(),
    ): Promise<{ userId: string; alreadyVerified: boolean; accountReset: boolean }> {
      let reset = false;
      const redeemed = await tokens.redeem<VerifyData>("verify-email", token, (claim) => {
        reset = !isOwnSession(confirmer, claim.userId);
        const mine = and(eq(u.id, claim.userId), eq(u.email, claim.data.email));
        const verify = db
          .update(u)
          .set({
            emailVerifiedAt: now,
            role: roleOnVerifiedEmail(env, claim.data.email),
            updatedAt: now,
            ...(reset ? FRESH_START_FIELDS : {}),
          })
          .where(and(mine, isNull(u.emailVerifiedAt), claim.guard));
        if (!reset) return [verify];
        // Only if this very batch verified it: a link for an account verified meanwhile resets nothing.
        const verifiedHere = sql`exists (select 1 from ${u} where ${mine} and ${u.emailVerifiedAt} = ${now})`;
        return [verify, ...freshStartStatements(db, claim.userId, and(claim.guard, verifiedHere)!)];
      });
      const row = await db.query.users.findFirst({ where: eq(u.id, redeemed.userId) });
      if (!row || row.email !== redeemed.data.email || row.emailVerifiedAt === null) {
        // The account's address changed since the link was sent: it proves nothing about the new one.
        throw new ValidationError(
          { token: "This link was for an earlier email address of your account." },
          "This link was for an earlier email address of your account. Ask for a new one.",
          "token-invalid",
        );
      }
      const alreadyVerified = row.emailVerifiedAt !== now;
      return { userId: row.id, alreadyVerified, accountReset: reset && !alreadyVerified };
    },

    /**
     * Sends a new link to a signed-in person whose address is not verified yet (rate-limited). `returnTo`: a
     * same-site path (the adapter checked it) the link carries, so confirming leads back to it.
     */
    async resend(
      actor: Actor | null,
      client: MailClient = {},
      now = Date.now(),
      returnTo: string | null = null,
    ): Promise<{ delivered: boolean }> {
      const user = requireUser(actor);
      const row = await db.query.users.findFirst({ where: eq(u.id, user.id) });
      if (!row) throw new Conflict("This account no longer exists.", "account-gone");
      if (row.emailVerifiedAt !== null) throw new Conflict(VERIFY_TEXTS.alreadyVerified, "already-verified");
      if (client.address)
        await rateLimit.hit(
          `verify-resend-address:${client.address.slice(0, 64)}`,
          RESEND_LIMIT.perAddress,
          RESEND_LIMIT.windowSeconds,
        );
      await rateLimit.hit(`verify-resend:${row.id}`, RESEND_LIMIT.perAccount, RESEND_LIMIT.windowSeconds);
      const { statements, send } = await this.prepare(row, client.origin, now, returnTo);
      await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      return { delivered: await send() };
    },
  };
}

export type EmailVerificationService = ReturnType<typeof createEmailVerificationService>;

export { VERIFY_TEXTS };
