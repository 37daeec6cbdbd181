import { and, asc, count, desc, eq, gt, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { csvFormat, csvParse } from "d3-dsv";
import { clientAddressKey } from "#worker/services/client-address.ts";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { NotFound, tooLarge, ValidationError } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Composed, Mailer } from "#worker/services/mail/mailer.ts";
import { requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import type { RateLimitService } from "#worker/services/rate-limit.ts";
import { signLink, verifyLink } from "#worker/services/signed-links.ts";
import { INVALID_EMAIL_TEXT } from "#worker/services/texts.ts";
import { emailField, parse } from "#worker/services/shared/validation.ts";
import { visibleBlogsWhere } from "#worker/services/visible-blogs.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { logError } from "#worker/log.ts";

export const SUBSCRIBER_STATES = ["pending", "confirmed", "unsubscribed"] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

/** A subscriber as the admin pages see it. */
export interface Subscriber {
  _id: string;
  email: string;
  state: SubscriberState;
  /** ISO 8601, when they subscribed. */
  created_at: string;
  confirmed_at: string | null;
}

/** One post's newsletter send, as the admin Newsletter page shows it. */
export interface NewsletterSend {
  blog_id: string;
  title: string;
  started_at: string;
  completed: boolean;
  /** Subscribers the fan-out reached whose message is not out yet. */
  queued: number;
  sent: number;
  /** Messages whose last try failed (the outbox keeps retrying them with backoff). */
  failed: number;
}

/**
 * Work on the newsletter queue (wrangler.toml [[queues]]). A fan-out walks one page of confirmed
 * subscribers after `after` and queues their sends; a send mails a few of them. Both are idempotent.
 */
export type NewsletterJob =
  | { kind: "fanout"; blogId: string; after: string; origin: string | null }
  | { kind: "send"; blogId: string; ids: string[]; origin: string | null };

/** Batch settings of the fan-out (README "Newsletter"; `npm run bench:newsletter` prints them). */
export const FANOUT = {
  /** Confirmed subscribers one fan-out job walks before queuing the next one. */
  page: 500,
  /** Subscribers one send job mails (two D1 statements each, in one batch). */
  chunk: 25,
  /** Messages per sendBatch call (the Queues limit is 100). */
  sendBatch: 100,
} as const;

export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const SUBSCRIBERS_PAGE = 25;
export const SENDS_PAGE = 10;
/** An import takes at most this many rows and this many bytes. */
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_MAX_BYTES = 512 * 1024;

export const NEWSLETTER_TEXTS = {
  invalidLink: "This link is not valid. Check that you copied all of it.",
  expiredLink: "This confirmation link has expired. Subscribe again to get a new one.",
} as const;

const subscribeInput = z.object({ email: emailField() });

/** Subscriptions per client address and hour: enough for a household, too few to fill the table. */
export const SUBSCRIPTIONS_PER_HOUR = 20;

const CONFIRM = "newsletter-confirm";
const UNSUBSCRIBE = "newsletter-unsubscribe";

type SubscriptionRow = typeof schema.newsletterSubscriptions.$inferSelect;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const toSubscriber = (row: SubscriptionRow): Subscriber => ({
  _id: row.id,
  email: row.email,
  state: row.state,
  created_at: new Date(row.createdAt).toISOString(),
  confirmed_at: iso(row.confirmedAt),
});

export function createNewsletterService(
  db: Db,
  env: Env,
  deps: { rateLimit: RateLimitService; mailer: Mailer; origin?: string | null },
) {
  const { rateLimit, mailer } = deps;
  const t = schema.newsletterSubscriptions;
  const d = schema.newsletterDeliveries;
  const s = schema.newsletterSends;
  const secret = () => env.SESSION_SECRET ?? "";

  const unsubscribeToken = (id: string) => signLink(secret(), UNSUBSCRIBE, [id]);

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

  /** The public post a newsletter message is about, or null when it is gone or not public (any more). */
  function visiblePost(blogId: string) {
    return db.query.blogs.findFirst({ where: visibleBlogsWhere(eq(schema.blogs.id, blogId)) });
  }

  function queue(): Queue<NewsletterJob> {
    if (!env.NEWSLETTER_QUEUE) throw new Error("the NEWSLETTER_QUEUE binding is missing ([[queues.producers]])");
    return env.NEWSLETTER_QUEUE;
  }

  async function enqueue(jobs: NewsletterJob[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += FANOUT.sendBatch) {
      await queue().sendBatch(jobs.slice(i, i + FANOUT.sendBatch).map((body) => ({ body, contentType: "json" })));
    }
  }

  /** Walks one page of confirmed subscribers: writes their delivery rows and queues their sends. */
  async function fanout(job: Extract<NewsletterJob, { kind: "fanout" }>): Promise<void> {
    if (!(await visiblePost(job.blogId))) return;
    const page = await db
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.state, "confirmed"), gt(t.id, job.after)))
      .orderBy(asc(t.id))
      .limit(FANOUT.page);
    if (page.length > 0) {
      // D1 binds at most 100 values per statement: 45 rows of two.
      const inserts: BatchItem<"sqlite">[] = [];
      for (let i = 0; i < page.length; i += 45) {
        inserts.push(
          db
            .insert(d)
            .values(page.slice(i, i + 45).map((p) => ({ blogId: job.blogId, subscriptionId: p.id })))
            .onConflictDoNothing(),
        );
      }
      await db.batch(inserts as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      const last = page[page.length - 1]!.id;
      // Every row of this page still without a message: a job retried after a crash queues what it missed.
      const open = await db
        .select({ id: d.subscriptionId })
        .from(d)
        .where(
          and(
            eq(d.blogId, job.blogId),
            isNull(d.outboxId),
            gt(d.subscriptionId, job.after),
            lte(d.subscriptionId, last),
          ),
        )
        .orderBy(asc(d.subscriptionId));
      const sends: NewsletterJob[] = [];
      for (let i = 0; i < open.length; i += FANOUT.chunk) {
        sends.push({
          kind: "send",
          blogId: job.blogId,
          ids: open.slice(i, i + FANOUT.chunk).map((o) => o.id),
          origin: job.origin,
        });
      }
      if (page.length === FANOUT.page)
        sends.push({ kind: "fanout", blogId: job.blogId, after: last, origin: job.origin });
      await enqueue(sends);
      if (page.length === FANOUT.page) return;
    }
    await db.update(s).set({ completedAt: Date.now() }).where(eq(s.blogId, job.blogId));
  }

  /**
   * Mails a few subscribers. Each address is claimed (its delivery row gets the message's outbox id)
   * in the same D1 batch that writes the message, guarded by that claim: a batch the queue delivers
   * again finds the rows claimed and writes and sends nothing.
   */
  async function send(job: Extract<NewsletterJob, { kind: "send" }>): Promise<void> {
    const post = await visiblePost(job.blogId);
    if (!post || job.ids.length === 0) return;
    // Only addresses not claimed yet: a batch delivered again composes nothing.
    const open = await db
      .select({ id: d.subscriptionId })
      .from(d)
      .where(
        and(eq(d.blogId, post.id), isNull(d.outboxId), inArray(d.subscriptionId, job.ids.slice(0, FANOUT.chunk * 2))),
      );
    if (open.length === 0) return;
    const ids = open.map((o) => o.id);
    const people = await db.select({ id: t.id, email: t.email, state: t.state }).from(t).where(inArray(t.id, ids));
    const gone = ids.filter((id) => !people.some((p) => p.id === id && p.state === "confirmed"));
    const url = mailer.link(job.origin, postPath(post));
    const image = post.image ? mailer.link(job.origin, post.image) : null;
    const work: { composed: Composed; claim: BatchItem<"sqlite"> }[] = [];
    for (const person of people) {
      if (person.state !== "confirmed") continue;
      const id = newId();
      const unsubscribeUrl = mailer.link(job.origin, "/newsletter/unsubscribe", {
        token: await unsubscribeToken(person.id),
      });
      const mine = and(eq(d.blogId, post.id), eq(d.subscriptionId, person.id));
      const composed = mailer.compose(
        {
          id,
          kind: "newsletter-post",
          to: person.email,
          origin: job.origin,
          params: {
            title: post.title,
            description: post.shortDescription,
            author: post.authorName,
            url,
            image,
            unsubscribeUrl,
          },
          headers: {
            "List-Unsubscribe": `<${unsubscribeUrl}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        },
        Date.now(),
        // The message stays only if this job's claim (below, in the same batch) took the row.
        sql`exists (select 1 from ${d} where ${mine} and ${d.outboxId} = ${id})`,
      );
      const claim = db
        .update(d)
        .set({ outboxId: id })
        .where(and(mine, isNull(d.outboxId)))
        .returning({ id: d.subscriptionId });
      work.push({ composed, claim });
    }
    // Per address: the claim first, then the message's statements (kept only if the claim took).
    const statements: BatchItem<"sqlite">[] = work.flatMap((w) => [w.claim, ...w.composed.statements]);
    // Addresses that unsubscribed (or were deleted) since the fan-out are not mailed, and not counted.
    for (const id of gone)
      statements.push(db.delete(d).where(and(eq(d.blogId, post.id), eq(d.subscriptionId, id), isNull(d.outboxId))));
    if (statements.length === 0) return;
    const results = (await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
    let at = 0;
    const claimed: Composed[] = [];
    for (const w of work) {
      if ((results[at] as unknown[]).length > 0) claimed.push(w.composed);
      at += 1 + w.composed.statements.length;
    }
    await mailer.deliver(claimed);
  }

  return {
    /**
     * Anyone may subscribe: a new (or unsubscribed, or still pending) address gets a confirmation link,
     * and only a confirmed one gets posts. The answer is the same whatever the address's state, so the
     * form cannot be used to find out who is subscribed. `clientAddress` bounds how many addresses one
     * client may submit, so a script cannot make the site mail strangers.
     */
    async subscribe(
      email: unknown,
      clientAddress?: string | null,
      origin: string | null = deps.origin ?? null,
    ): Promise<{ subscribed: true }> {
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
      await db.insert(t).values({ id: newId(), email: data.email }).onConflictDoNothing();
      const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(t.email, data.email) });
      if (!row || row.state === "confirmed") return { subscribed: true };
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

    /** The confirmation link: the address starts getting posts. Opening it again changes nothing. */
    async confirm(token: unknown, now = Date.now()): Promise<{ email: string; unsubscribeToken: string }> {
      const [row, parts] = await subscriptionFor(CONFIRM, token, 2);
      if (parseInt(parts[1]!, 36) <= now)
        throw new ValidationError(
          { token: NEWSLETTER_TEXTS.expiredLink },
          NEWSLETTER_TEXTS.expiredLink,
          "token-expired",
        );
      if (row.state !== "confirmed")
        await db.update(t).set({ state: "confirmed", confirmedAt: now, unsubscribedAt: null }).where(eq(t.id, row.id));
      return { email: row.email, unsubscribeToken: await unsubscribeToken(row.id) };
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

    /**
     * A post just became public: the first time (with mailing on), its send is recorded and the
     * fan-out queued. Later edits and republishing find the send and do nothing.
     */
    async announce(blogId: string, origin: string | null = deps.origin ?? null): Promise<boolean> {
      const post = await visiblePost(blogId);
      if (!post || !post.emailSubscribers) return false;
      const started = await db
        .insert(s)
        .values({ blogId, title: post.title })
        .onConflictDoNothing()
        .returning({ id: s.blogId });
      if (started.length === 0) return false;
      try {
        await queue().send({ kind: "fanout", blogId, after: "", origin }, { contentType: "json" });
      } catch (err) {
        // The cron's resume picks it up (resumeStalled).
        logError("newsletter: could not queue a fan-out", err);
      }
      return true;
    },

    /** The minute cron: fan-outs that never finished (a queue outage) walk the list again. Idempotent. */
    async resumeStalled(now = Date.now()): Promise<number> {
      const stalled = await db
        .select({ blogId: s.blogId })
        .from(s)
        .where(and(isNull(s.completedAt), lte(s.createdAt, now - 15 * 60 * 1000)))
        .limit(5);
      await enqueue(stalled.map((r) => ({ kind: "fanout", blogId: r.blogId, after: "", origin: null })));
      return stalled.length;
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

    /** The queue consumer's work for one message. */
    async run(job: NewsletterJob): Promise<void> {
      if (job.kind === "fanout") return fanout(job);
      if (job.kind === "send") return send(job);
    },

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
      return (await this.subscribers(actor, {})).subscribers;
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
      return `${csvFormat(out, ["email", "confirmed_at"])}\n`;
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
      const rows = csvParse(text.replace(/^\uFEFF/, ""));
      const column = rows.columns.find((c) => c.trim().toLowerCase() === "email");
      const values = column
        ? rows.map((r) => r[column] ?? "")
        : [rows.columns[0] ?? "", ...rows.map((r) => r[rows.columns[0] ?? ""] ?? "")];
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
        })),
        page,
        pages: Math.max(1, Math.ceil(total / SENDS_PAGE)),
      };
    },

    /** One subscriber by id (tests, and the admin's detail): 404 when unknown. */
    async byId(actor: Actor | null, id: string): Promise<Subscriber> {
      requireAdmin(actor);
      const row = await db.query.newsletterSubscriptions.findFirst({ where: eq(t.id, id) });
      if (!row) throw new NotFound("Subscriber not found.");
      return toSubscriber(row);
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
