import { and, asc, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "#worker/db.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Composed, Mailer } from "#worker/services/mail/mailer.ts";
import { publicTextOf, visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import { memberStatus, type MemberStatus } from "#worker/services/members/model.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { readSiteSetting } from "#worker/services/site-settings.ts";
import { postForMail } from "#worker/content/mail-post.ts";
import {
  FANOUT,
  effectiveContent,
  type NewsletterAudience,
  type NewsletterJob,
} from "#worker/services/newsletter/model.ts";
import { unsubscribeToken } from "#worker/services/newsletter/subscriptions.ts";

/**
 * The newsletter's queue work: a fan-out walks the confirmed subscribers a page at a time and queues
 * their sends; a send claims and mails a few of them. Both are idempotent (a job delivered again does nothing).
 */
export function createNewsletterDelivery(k: Kernel, deps: { mailer: Mailer }) {
  const { db, env } = k;
  const { mailer } = deps;
  const t = schema.newsletterSubscriptions;
  const d = schema.newsletterDeliveries;
  const s = schema.newsletterSends;

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
    const [page, started] = await db.batch([
      db
        .select({ id: t.id, email: t.email })
        .from(t)
        .where(and(eq(t.state, "confirmed"), gt(t.id, job.after)))
        .orderBy(asc(t.id))
        .limit(FANOUT.page),
      db.select({ audience: s.audience }).from(s).where(eq(s.blogId, job.blogId)),
    ]);
    if (page.length > 0) {
      const audience = await inAudience(started[0]?.audience ?? "everyone", page);
      // D1 binds at most 100 values per statement: 45 rows of two.
      const inserts: BatchItem<"sqlite">[] = [];
      for (let i = 0; i < audience.length; i += 45) {
        inserts.push(
          db
            .insert(d)
            .values(audience.slice(i, i + 45).map((p) => ({ blogId: job.blogId, subscriptionId: p.id })))
            .onConflictDoNothing(),
        );
      }
      if (inserts.length > 0) await db.batch(inserts as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
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
   * Of some subscribers' addresses, the member status of each that belongs to a proven account (an account that
   * never proved its address is a stranger: someone may have typed another's). Addresses not in it: no account.
   */
  async function accountsOf(emails: string[]): Promise<Map<string, MemberStatus>> {
    if (emails.length === 0) return new Map();
    const u = schema.users;
    const rows = await db
      .select({ email: u.email, member: schema.members })
      .from(u)
      .leftJoin(schema.members, eq(schema.members.userId, u.id))
      .where(and(inArray(u.email, emails), sql`${u.emailVerifiedAt} is not null`));
    return new Map(rows.map((r) => [r.email, memberStatus(r.member ?? undefined)]));
  }

  /** Whether a subscriber is a paying reader: a proven account that is a paid or comped member. */
  const paying = (accounts: Map<string, MemberStatus>, email: string) => {
    const status = accounts.get(email);
    return status === "paid" || status === "comped";
  };

  /**
   * Of a page of subscribers, those a send's audience holds: everyone; "paid", the paid and comped members;
   * "free", every other subscriber (free accounts and addresses without one). Asked a page at a time (D1 binds
   * at most 100 values per statement).
   */
  async function inAudience<P extends { email: string }>(audience: NewsletterAudience, page: P[]): Promise<P[]> {
    if (audience === "everyone") return page;
    const accounts = new Map<string, MemberStatus>();
    for (let i = 0; i < page.length; i += 90)
      for (const [email, status] of await accountsOf(page.slice(i, i + 90).map((p) => p.email)))
        accounts.set(email, status);
    return page.filter((p) => paying(accounts, p.email) === (audience === "paid"));
  }

  /**
   * Of some subscribers' addresses, those that read a gated post whole (decision 053): the address of a proven
   * account for a members' post; of a paid or comped member's for a paid one. Everyone else gets the preview.
   */
  async function wholeReaders(post: { visibility: string }, emails: string[]): Promise<Set<string>> {
    if (post.visibility === "public" || emails.length === 0) return new Set(emails);
    const accounts = await accountsOf(emails);
    return new Set(
      emails.filter((email) => accounts.has(email) && (post.visibility === "members" || paying(accounts, email))),
    );
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
    // ?ref=newsletter: the read this link brings counts as the newsletter's (worker/services/analytics/).
    const url = mailer.link(job.origin, postPath(post), { ref: "newsletter" });
    const image = post.image ? mailer.link(job.origin, post.image) : null;
    // The post's choice, else the site's default, as it is now (not when the post was published).
    const content = effectiveContent(post.newsletterContent, await readSiteSetting(db, "newsletter_content"));
    // The whole post: a gated one only to the subscribers who may read it, the preview (and the post's call to
    // join, one click away) to the others.
    const body = content === "full" ? postForMail(publicTextOf(post), mailer.link(job.origin, postPath(post))) : null;
    const wholeBody =
      content === "full" && post.visibility !== "public"
        ? postForMail(post.blogDetails, mailer.link(job.origin, postPath(post)))
        : body;
    const whole = await wholeReaders(
      post,
      content === "full" ? people.filter((p) => p.state === "confirmed").map((p) => p.email) : [],
    );
    const work: { composed: Composed; claim: BatchItem<"sqlite"> }[] = [];
    for (const person of people) {
      if (person.state !== "confirmed") continue;
      const id = newId();
      const unsubscribeUrl = mailer.link(job.origin, "/newsletter/unsubscribe", {
        token: await unsubscribeToken(k, person.id),
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
            ...(body ? { body: (whole.has(person.email) && wholeBody) || body } : {}),
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

  return { visiblePost, queue, enqueue, fanout, send };
}
