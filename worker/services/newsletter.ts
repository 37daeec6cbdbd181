import { desc } from "drizzle-orm";
import { z } from "zod";
import { MSG } from "../../app/lib/messages";
import type { Db } from "../db";
import { schema } from "../db";
import { ValidationError } from "./errors";
import { newId } from "./ids";
import { requireAdmin, type Actor } from "./policy";
import { emailField, parse } from "./validation";

/** A subscriber as the admin inbox sees it. */
export interface Subscriber {
  _id: string;
  email: string;
  /** ISO 8601, when they subscribed. */
  created_at: string;
}

const subscribeInput = z.object({ email: emailField() });

export function createNewsletterService(db: Db) {
  return {
    /**
     * Anyone may subscribe. The address is stored lower-cased under a unique index, so sending it
     * again (in any case, or twice at once) keeps one row. The answer is the same for a new and a
     * repeated address, so the form cannot be used to find out who is subscribed.
     */
    async subscribe(email: unknown): Promise<{ subscribed: true }> {
      let data: z.output<typeof subscribeInput>;
      try {
        data = parse(subscribeInput, { email });
      } catch (err) {
        // The spec has one newsletter message for every unusable address (empty, malformed, too long).
        if (err instanceof ValidationError) throw new ValidationError({ email: MSG.newsletter.empty }, MSG.newsletter.empty);
        throw err;
      }
      await db.insert(schema.newsletterSubscriptions).values({ id: newId(), email: data.email }).onConflictDoNothing();
      return { subscribed: true };
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
