import { count, desc } from "drizzle-orm";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { clientAddressKey } from "#worker/services/client-address.ts";
import { CONTACT_HONEYPOT } from "#worker/services/shared/limits.ts";
import { emailField, LIMITS, optionalText, parse, requiredText } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export const MESSAGES_PER_WINDOW = 5;
export const MESSAGE_WINDOW_SECONDS = 10 * 60;
/** Visitors (no sign-in) share the limit per client address: fewer, since anyone can be a visitor. */
export const VISITOR_MESSAGES_PER_WINDOW = 3;
export { CONTACT_HONEYPOT };

type ContactRow = typeof schema.contactMessages.$inferSelect;

/** A contact message as the admin inbox sees it. */
export interface ContactMessage {
  _id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  /** ISO 8601, when it was sent. */
  created_at: string;
}

export function toContactMessage(row: ContactRow): ContactMessage {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/** Contact form: name, email and message required; subject optional (spec section 5). */
export const contactInput = z.object({
  name: requiredText("Name", LIMITS.name),
  email: emailField(),
  subject: optionalText("Subject", LIMITS.subject),
  message: requiredText("Message", LIMITS.message),
});

export function createContactService(k: Kernel) {
  const { db, rateLimit } = k;
  return {
    /**
     * Anyone may write (A person locked out of their account must be able to reach the site). A
     * signed-in person is counted per account; a visitor per client address (CF-Connecting-IP, its /64),
     * and a filled honeypot is answered as sent but stored nowhere.
     */
    async send(actor: Actor | null, input: unknown, clientAddress?: string | null): Promise<{ insertedId: string }> {
      const data = parse(contactInput, input);
      const trap =
        typeof input === "object" && input !== null ? (input as Record<string, unknown>)[CONTACT_HONEYPOT] : "";
      if (typeof trap === "string" && trap.trim() !== "") return { insertedId: newId() };
      if (actor) await rateLimit.hit(`contact:${actor.id}`, MESSAGES_PER_WINDOW, MESSAGE_WINDOW_SECONDS);
      else
        await rateLimit.hit(
          `contact:visitor:${clientAddressKey(clientAddress)}`,
          VISITOR_MESSAGES_PER_WINDOW,
          MESSAGE_WINDOW_SECONDS,
        );
      const id = newId();
      await db.insert(schema.contactMessages).values({
        id,
        userId: actor?.id ?? null,
        name: data.name,
        email: data.email,
        subject: data.subject ?? "",
        message: data.message,
      });
      return { insertedId: id };
    },

    /** GET /api/contact: a page of the inbox, newest first (50 without paging). */
    async inboxPage(actor: Actor | null, input: { page?: unknown; limit?: unknown }): Promise<Page<ContactMessage>> {
      requireAdmin(actor);
      const paging = parsePaging(input, 50);
      const t = schema.contactMessages;
      const [rows, totals] = await db.batch([
        db.select().from(t).orderBy(desc(t.createdAt), desc(t.id)).limit(paging.limit).offset(paging.offset),
        db.select({ total: count() }).from(t),
      ]);
      return toPage(rows.map(toContactMessage), totals[0]?.total ?? 0, paging);
    },

    /** The admin inbox, newest first. */
    async inbox(actor: Actor | null): Promise<ContactMessage[]> {
      requireAdmin(actor);
      const rows = await db
        .select()
        .from(schema.contactMessages)
        .orderBy(desc(schema.contactMessages.createdAt), desc(schema.contactMessages.id));
      return rows.map(toContactMessage);
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
