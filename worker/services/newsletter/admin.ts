import { and, asc, count, desc, eq, gt, sql, type SQL } from "drizzle-orm";
import { formatCsv, parseCsv } from "#worker/content/csv.ts";
import { schema } from "#worker/db.ts";
import { NotFound, tooLarge, ValidationError } from "#worker/services/shared/errors.ts";
import { isIdShaped, newId } from "#worker/services/shared/ids.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import { readSiteSetting, writeSiteSetting } from "#worker/services/site-settings.ts";
import { parse } from "#worker/services/shared/validation.ts";
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  SENDS_PAGE,
  SUBSCRIBER_STATES,
  SUBSCRIBERS_PAGE,
  audienceDefaultInput,
  contentDefaultInput,
  iso,
  subscribeInput,
  toSubscriber,
  type NewsletterAudience,
  type NewsletterContent,
  type NewsletterSend,
  type Subscriber,
  type SubscriberState,
} from "#worker/services/newsletter/model.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** The admin's side of the newsletter: the subscriber list, CSV export and import, removal, and each post's send. */
export function createNewsletterAdmin(k: Kernel, deps: { mailer: Mailer }) {
  const { db } = k;
  const t = schema.newsletterSubscriptions;
  const s = schema.newsletterSends;

  const admin = {
    /** The admin's list: a page of subscribers, newest first, filtered by address and state. */
    async subscribers(
      actor: Actor | null,
      input: { page?: unknown; q?: unknown; state?: unknown },
    ): Promise<{
      subscribers: Subscriber[];
      total: number;
      page: number;
      pages: number;
      counts: Record<SubscriberState, number>;
    }> {
      requireAdmin(actor);
      const page = Math.max(1, Math.min(10_000, Math.floor(Number(input.page) || 1)));
      const q = typeof input.q === "string" ? input.q.trim().toLowerCase().slice(0, 100) : "";
      const state = SUBSCRIBER_STATES.find((x) => x === input.state);
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const escaped: SQL | undefined = and(
        q ? sql`${t.email} like ${pattern} escape '\\'` : undefined,
        state ? eq(t.state, state) : undefined,
      );
      const [rows, totals, byState] = await db.batch([
        db
          .select()
          .from(t)
          .where(escaped)
          .orderBy(desc(t.createdAt), desc(t.id))
          .limit(SUBSCRIBERS_PAGE)
          .offset((page - 1) * SUBSCRIBERS_PAGE),
        db.select({ n: count() }).from(t).where(escaped),
        db.select({ state: t.state, n: count() }).from(t).groupBy(t.state),
      ]);
      const total = totals[0]?.n ?? 0;
      const counts = { pending: 0, confirmed: 0, unsubscribed: 0 };
      for (const r of byState) counts[r.state] = r.n;
      return {
        subscribers: rows.map(toSubscriber),
        total,
        page,
        pages: Math.max(1, Math.ceil(total / SUBSCRIBERS_PAGE)),
        counts,
      };
    },

    /** Every subscriber, newest first, capped (the dashboard inbox's short list). */
    async list(actor: Actor | null): Promise<Subscriber[]> {
      return (await admin.subscribers(actor, {})).subscribers;
    },

    /** CSV of the confirmed subscribers (email, confirmed_at), read a page at a time. */
    async exportCsv(actor: Actor | null): Promise<string> {
      requireAdmin(actor);
      const out: { email: string; confirmed_at: string }[] = [];
      let after = "";
      for (;;) {
        const rows = await db
          .select({ id: t.id, email: t.email, confirmedAt: t.confirmedAt })
          .from(t)
          .where(and(eq(t.state, "confirmed"), gt(t.id, after)))
          .orderBy(asc(t.id))
          .limit(1000);
        for (const r of rows) out.push({ email: r.email, confirmed_at: iso(r.confirmedAt) ?? "" });
        if (rows.length < 1000) break;
        after = rows[rows.length - 1]!.id;
      }
      out.sort((a, b) => a.email.localeCompare(b.email));
      return `${formatCsv(out, ["email", "confirmed_at"])}\n`;
    },

    /**
     * Imports confirmed subscribers from CSV (an "email" column, or addresses in the first column).
     * The admin vouches for their consent. Unusable rows are reported, never half-imported; an address
     * that unsubscribed stays unsubscribed.
     */
    async importCsv(
      actor: Actor | null,
      text: unknown,
      now = Date.now(),
    ): Promise<{ imported: number; skipped: number; invalid: string[] }> {
      requireAdmin(actor);
      if (typeof text !== "string" || text.trim() === "")
        throw new ValidationError({ file: "Choose a CSV file with an email column." });
      if (text.length > IMPORT_MAX_BYTES) throw tooLarge("A CSV import can be at most 512 KB.");
      const { columns, rows } = parseCsv(text);
      const column = columns.find((c) => c.trim().toLowerCase() === "email");
      const values = column
        ? rows.map((r) => r[column] ?? "")
        : [columns[0] ?? "", ...rows.map((r) => r[columns[0] ?? ""] ?? "")];
      if (values.length > IMPORT_MAX_ROWS) throw tooLarge(`A CSV import can have at most ${IMPORT_MAX_ROWS} rows.`);
      const emails = new Set<string>();
      const invalid: string[] = [];
      for (const value of values) {
        const parsed = subscribeInput.safeParse({ email: value });
        if (parsed.success) emails.add(parsed.data.email);
        else if (value.trim()) invalid.push(value.trim().slice(0, 200));
      }
      const list = [...emails];
      let imported = 0;
      for (let i = 0; i < list.length; i += 20) {
        const slice = list.slice(i, i + 20);
        const inserted = await db
          .insert(t)
          .values(slice.map((email) => ({ id: newId(), email, state: "confirmed" as const, confirmedAt: now })))
          .onConflictDoUpdate({
            target: t.email,
            set: { state: "confirmed", confirmedAt: now },
            setWhere: eq(t.state, "pending"),
          })
          .returning({ id: t.id });
        imported += inserted.length;
      }
      return { imported, skipped: list.length - imported, invalid: invalid.slice(0, 50) };
    },

    /** Each post's send, newest first, with queued, sent and failed counts. */
    async sends(
      actor: Actor | null,
      input: { page?: unknown },
    ): Promise<{ sends: NewsletterSend[]; page: number; pages: number }> {
      requireAdmin(actor);
      const page = Math.max(1, Math.min(10_000, Math.floor(Number(input.page) || 1)));
      const [rows, totals] = await db.batch([
        db
          .select({
            blogId: s.blogId,
            title: s.title,
            createdAt: s.createdAt,
            completedAt: s.completedAt,
            audience: s.audience,
            // Qualified by hand: inside a select list Drizzle writes bare column names, and a bare
            // blog_id in the subquery would be the deliveries' own (every post's rows counted).
            sent: sql<number>`(select count(*) from newsletter_deliveries nd left join mail_outbox mo on mo.id = nd.outbox_id
              where nd.blog_id = "newsletter_sends"."blog_id" and nd.outbox_id is not null and (mo.sent_at is not null or mo.id is null))`,
            failed: sql<number>`(select count(*) from newsletter_deliveries nd join mail_outbox mo on mo.id = nd.outbox_id
              where nd.blog_id = "newsletter_sends"."blog_id" and mo.sent_at is null and mo.last_error is not null)`,
            total: sql<number>`(select count(*) from newsletter_deliveries nd where nd.blog_id = "newsletter_sends"."blog_id")`,
          })
          .from(s)
          .orderBy(desc(s.createdAt), desc(s.blogId))
          .limit(SENDS_PAGE)
          .offset((page - 1) * SENDS_PAGE),
        db.select({ n: count() }).from(s),
      ]);
      const total = totals[0]?.n ?? 0;
      return {
        sends: rows.map((r) => ({
          blog_id: r.blogId,
          title: r.title,
          started_at: new Date(r.createdAt).toISOString(),
          completed: r.completedAt !== null,
          queued: r.total - r.sent - r.failed,
          sent: r.sent,
          failed: r.failed,
          audience: r.audience,
        })),
        page,
        pages: Math.max(1, Math.ceil(total / SENDS_PAGE)),
      };
    },

    /**
     * Removes a subscriber for good: the row goes (its queued deliveries with it, by cascade), and so does
     * every newsletter message to the address still waiting in the outbox, in one batch. A send job that
     * runs later finds no row and mails nothing. Should the person subscribe again, that is a new opt-in.
     */
    async remove(actor: Actor | null, id: unknown): Promise<{ removed: true; email: string }> {
      requireAdmin(actor);
      if (typeof id !== "string" || !isIdShaped(id)) throw new NotFound("Subscriber not found.");
      const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(t.id, id) });
      if (!row) throw new NotFound("Subscriber not found.");
      await db.batch([
        db.delete(schema.newsletterDeliveries).where(eq(schema.newsletterDeliveries.subscriptionId, id)),
        db.delete(t).where(eq(t.id, id)),
        deps.mailer.withdraw(["newsletter-post", "newsletter-confirm"], row.email),
      ]);
      return { removed: true, email: row.email };
    },

    /** The site's default for what a post's newsletter mail carries: the teaser and a link, or the whole post. */
    async contentDefault(actor: Actor | null): Promise<NewsletterContent> {
      requireAdmin(actor);
      return readSiteSetting(db, "newsletter_content");
    },

    /** The admin chooses that default; posts that chose for themselves keep their choice. */
    async setContentDefault(actor: Actor | null, input: unknown): Promise<{ modifiedCount: number }> {
      const admin = requireAdmin(actor);
      const { content } = parse(contentDefaultInput, input);
      return { modifiedCount: (await writeSiteSetting(db, "newsletter_content", content, admin.id)) ? 1 : 0 };
    },

    /** The site's default for who a post's newsletter goes to: everyone, free subscribers or paid members. */
    async audienceDefault(actor: Actor | null): Promise<NewsletterAudience> {
      requireAdmin(actor);
      return readSiteSetting(db, "newsletter_audience");
    },

    /** The admin chooses that default; posts an admin gave an audience of their own keep it. */
    async setAudienceDefault(actor: Actor | null, input: unknown): Promise<{ modifiedCount: number }> {
      const admin = requireAdmin(actor);
      const { audience } = parse(audienceDefaultInput, input);
      return { modifiedCount: (await writeSiteSetting(db, "newsletter_audience", audience, admin.id)) ? 1 : 0 };
    },

    /**
     * The Newsletter page's one form: what subscribers get and who gets it (left as it is when not sent), both
     * checked before either is stored (a refused audience leaves the content as it was). Answers how many changed.
     */
    async setDefaults(actor: Actor | null, input: unknown): Promise<{ modifiedCount: number }> {
      const admin = requireAdmin(actor);
      const both = contentDefaultInput.extend({ audience: audienceDefaultInput.shape.audience.optional() });
      const { content, audience } = parse(both, input);
      const changed = [
        await writeSiteSetting(db, "newsletter_content", content, admin.id),
        // A form without the field (an older page) leaves the audience as it is.
        audience === undefined ? false : await writeSiteSetting(db, "newsletter_audience", audience, admin.id),
      ];
      return { modifiedCount: changed.filter(Boolean).length };
    },

    /** One subscriber by id (tests, and the admin's detail): 404 when unknown. */
    async byId(actor: Actor | null, id: string): Promise<Subscriber> {
      requireAdmin(actor);
      const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(t.id, id) });
      if (!row) throw new NotFound("Subscriber not found.");
      return toSubscriber(row);
    },
  };
  return admin;
}
