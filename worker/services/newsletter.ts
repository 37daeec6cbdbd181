import { clientAddressKey } from "./client-address";
import { count, desc } from "drizzle-orm";
import { parsePaging, toPage, type Page } from "./shared/pagination";
import { z } from "zod";
import type { Db } from "../db";
import { schema } from "../db";
import { ValidationError } from "./errors";

import { newId } from "./ids";
import { INVALID_EMAIL_TEXT } from "./texts";
import { requireAdmin, type Actor } from "./policy";
import type { RateLimitService } from "./rate-limit";
import { emailField, parse } from "./validation";

/** A subscriber as the admin inbox sees it. */
export interface Subscriber {
  _id: string;
  email: string;
  /** ISO 8601, when they subscribed. */
  created_at: string;
}

const subscribeInput = z.object({ email: emailField() });

/** Subscriptions per client address and hour: enough for a household, too few to fill the table. */
export const SUBSCRIPTIONS_PER_HOUR = 20;

export function createNewsletterService(db: Db, rateLimit: RateLimitService) {
  return {
    /**
     * Anyone may subscribe. The address is stored lower-cased under a unique index, so sending it
     * again (in any case, or twice at once) keeps one row. The answer is the same for a new and a
     * repeated address, so the form cannot be used to find out who is subscribed.
     * `clientAddress` (the visitor's IP, which Cloudflare always sends) bounds how many addresses
     * one client may submit, so a script cannot fill the list with strangers' emails.
     */
    async subscribe(email: unknown, clientAddress?: string | null): Promise<{ subscribed: true }> {
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
      await db.insert(schema.newsletterSubscriptions).values({ id: newId(), email: data.email }).onConflictDoNothing();
      return { subscribed: true };
    },

    /** The admin inbox's subscribers, a page at a time, newest first. */
    async page(actor: Actor | null, input: { page?: unknown; limit?: unknown }): Promise<Page<Subscriber>> {
      requireAdmin(actor);
      const paging = parsePaging(input, 50);
      const t = schema.newsletterSubscriptions;
      const [rows, totals] = await db.batch([
        db.select().from(t).orderBy(desc(t.createdAt), desc(t.id)).limit(paging.limit).offset(paging.offset),
        db.select({ total: count() }).from(t),
      ]);
      const items = rows.map((row) => ({
        _id: row.id,
        email: row.email,
        created_at: new Date(row.createdAt).toISOString(),
      }));
      return toPage(items, totals[0]?.total ?? 0, paging);
    },

    /** The admin inbox: every subscriber, newest first. */
    async list(actor: Actor | null): Promise<Subscriber[]> {
      requireAdmin(actor);
      const t = schema.newsletterSubscriptions;
      const rows = await db.select().from(t).orderBy(desc(t.createdAt), desc(t.id));
      return rows.map((row) => ({ _id: row.id, email: row.email, created_at: new Date(row.createdAt).toISOString() }));
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
