import { eq } from "drizzle-orm";
import type { z } from "zod";
import { clientAddressKey } from "#worker/services/client-address.ts";
import { schema } from "#worker/db.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { RateLimited, ValidationError } from "#worker/services/shared/errors.ts";
import { isIdShaped, newId } from "#worker/services/shared/ids.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { signLink, verifyLink } from "#worker/services/signed-links.ts";
import { INVALID_EMAIL_TEXT } from "#worker/services/texts.ts";
import { parse } from "#worker/services/shared/validation.ts";
import {
  CONFIRM,
  CONFIRM_MAILS_PER_HOUR,
  CONFIRM_TTL_MS,
  NEWSLETTER_TEXTS,
  SUBSCRIPTIONS_PER_HOUR,
  UNSUBSCRIBE,
  subscribeInput,
  type SubscriberState,
  type SubscriptionRow,
} from "#worker/services/newsletter/model.ts";

/** A subscriber's one-click unsubscribe link, signed with the session secret (every newsletter carries one). */
export const unsubscribeToken = (k: Kernel, id: string) => signLink(k.config.sessionSecret, UNSUBSCRIBE, [id]);

/** Subscribing, the signed confirm and unsubscribe links, and the one-click choice of a signed-in account. */
export function createNewsletterSubscriptions(k: Kernel, deps: { mailer: Mailer }) {
  const { db, rateLimit } = k;
  const { mailer } = deps;
  const t = schema.newsletterSubscriptions;
  const secret = () => k.config.sessionSecret;

  async function subscriptionFor(
    purpose: string,
    token: unknown,
    fields: number,
  ): Promise<[SubscriptionRow, string[]]> {
    const parts = await verifyLink(secret(), purpose, token, fields);
    if (!parts)
      throw new ValidationError({ token: NEWSLETTER_TEXTS.invalidLink }, NEWSLETTER_TEXTS.invalidLink, "token-invalid");
    const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(t.id, parts[0]!) });
    if (!row)
      throw new ValidationError({ token: NEWSLETTER_TEXTS.invalidLink }, NEWSLETTER_TEXTS.invalidLink, "token-invalid");
    return [row, parts];
  }

  /** The subscription a confirmation link names, if it is genuine and not expired. */
  async function confirmable(token: unknown, now: number): Promise<SubscriptionRow> {
    const [row, parts] = await subscriptionFor(CONFIRM, token, 2);
    if (parseInt(parts[1]!, 36) <= now)
      throw new ValidationError({ token: NEWSLETTER_TEXTS.expiredLink }, NEWSLETTER_TEXTS.expiredLink, "token-expired");
    return row;
  }

  return {
    /**
     * Anyone may subscribe: a new (or unsubscribed, or still pending) address gets a confirmation link,
     * and only a confirmed one gets posts. The answer is the same whatever the address's state, so the
     * form cannot be used to find out who is subscribed. `clientAddress` bounds how many addresses one
     * client may submit, and one address gets at most CONFIRM_MAILS_PER_HOUR confirmations whoever asks,
     * so nobody can make the site mail-bomb a stranger. One answer differs, to the one person it cannot
     * tell anything new: a signed-in account subscribing its own verified address, already confirmed,
     * hears `already` (nobody else learns anything about that address from it).
     */
    async subscribe(
      email: unknown,
      clientAddress?: string | null,
      origin: string | null = k.origin,
      fromPost: unknown = null,
      actor: Actor | null = null,
    ): Promise<{ subscribed: true; already?: true }> {
      let data: z.output<typeof subscribeInput>;
      try {
        data = parse(subscribeInput, { email });
      } catch (err) {
        // The spec has one newsletter message for every unusable address (empty, malformed, too long).
        if (err instanceof ValidationError)
          throw new ValidationError({ email: INVALID_EMAIL_TEXT }, INVALID_EMAIL_TEXT);
        throw err;
      }
      // IPv6 by /64; no address at all is one shared client, never unlimited.
      await rateLimit.hit(`newsletter:${clientAddressKey(clientAddress)}`, SUBSCRIPTIONS_PER_HOUR, 60 * 60);
      // The post the form was reached from (analytics' "subscribers gained"), if it is one.
      const source = isIdShaped(fromPost)
        ? ((
            await db.select({ id: schema.blogs.id }).from(schema.blogs).where(eq(schema.blogs.id, fromPost)).limit(1)
          )[0]?.id ?? null)
        : null;
      await db.insert(t).values({ id: newId(), email: data.email, sourceBlogId: source }).onConflictDoNothing();
      const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(t.email, data.email) });
      if (!row || row.state === "confirmed") {
        const own = actor?.emailVerified === true && actor.email.toLowerCase() === data.email;
        return own && row ? { subscribed: true, already: true } : { subscribed: true };
      }
      try {
        await rateLimit.hit(`newsletter-confirm:${row.email}`, CONFIRM_MAILS_PER_HOUR, 60 * 60);
      } catch (err) {
        if (err instanceof RateLimited) return { subscribed: true };
        throw err;
      }
      const expires = Date.now() + CONFIRM_TTL_MS;
      const token = await signLink(secret(), CONFIRM, [row.id, expires.toString(36)]);
      await mailer.send({
        kind: "newsletter-confirm",
        to: row.email,
        origin,
        params: { url: mailer.link(origin, "/newsletter/confirm", { token }) },
        expiresAt: expires,
      });
      return { subscribed: true };
    },

    /**
     * Who a confirmation link is for, changing nothing: opening the link (GET) only shows a button that
     * posts it, so a mail scanner following links subscribes nobody. Refuses like `confirm`.
     */
    async confirmInfo(token: unknown, now = Date.now()): Promise<{ email: string; state: SubscriberState }> {
      const row = await confirmable(token, now);
      return { email: row.email, state: row.state };
    },

    /** The confirmation link's button (a POST): the address starts getting posts. Again changes nothing. */
    async confirm(token: unknown, now = Date.now()): Promise<{ email: string; unsubscribeToken: string }> {
      const row = await confirmable(token, now);
      if (row.state !== "confirmed")
        await db.update(t).set({ state: "confirmed", confirmedAt: now, unsubscribedAt: null }).where(eq(t.id, row.id));
      return { email: row.email, unsubscribeToken: await unsubscribeToken(k, row.id) };
    },

    /** Who an unsubscribe link is for (the GET page asks before it acts). */
    async unsubscribeInfo(token: unknown): Promise<{ email: string; state: SubscriberState }> {
      const [row] = await subscriptionFor(UNSUBSCRIBE, token, 1);
      return { email: row.email, state: row.state };
    },

    /** One click (RFC 8058): no session, no further question. Doing it again changes nothing. */
    async unsubscribe(token: unknown, now = Date.now()): Promise<{ email: string }> {
      const [row] = await subscriptionFor(UNSUBSCRIBE, token, 1);
      if (row.state !== "unsubscribed")
        await db.update(t).set({ state: "unsubscribed", unsubscribedAt: now }).where(eq(t.id, row.id));
      return { email: row.email };
    },

    /** The signed-in person's subscription state (by their account's email), or null. */
    async stateOf(actor: Actor | null): Promise<SubscriberState | null> {
      const user = requireUser(actor);
      const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(t.email, user.email.toLowerCase()) });
      return row?.state ?? null;
    },

    /**
     * One click from /settings: an account whose email is verified needs no confirmation link (it
     * already proved the mailbox), so it is confirmed at once.
     */
    async subscribeAccount(actor: Actor | null, now = Date.now()): Promise<{ state: SubscriberState }> {
      const user = requireUser(actor);
      const row = await db.query.users.findFirst({ where: eq(schema.users.id, user.id) });
      if (!row?.emailVerifiedAt)
        throw new ValidationError(
          { email: "Verify your email address first, then subscribe in one click." },
          "Verify your email address first, then subscribe in one click.",
          "email-not-verified",
        );
      await db
        .insert(t)
        .values({ id: newId(), email: row.email, state: "confirmed", confirmedAt: now })
        .onConflictDoUpdate({ target: t.email, set: { state: "confirmed", confirmedAt: now, unsubscribedAt: null } });
      return { state: "confirmed" };
    },

    async unsubscribeAccount(actor: Actor | null, now = Date.now()): Promise<{ state: SubscriberState | null }> {
      const user = requireUser(actor);
      const gone = await db
        .update(t)
        .set({ state: "unsubscribed", unsubscribedAt: now })
        .where(eq(t.email, user.email.toLowerCase()))
        .returning({ id: t.id });
      return { state: gone.length ? "unsubscribed" : null };
    },
  };
}
