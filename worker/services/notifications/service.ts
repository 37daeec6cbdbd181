import type { NotificationJob } from "#worker/queues/messages.ts";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "#worker/db.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import { logError } from "#worker/log.ts";
import { createNotificationMail, UNSUBSCRIBE_PURPOSE } from "#worker/services/notifications/mail.ts";
import { createNotificationInbox } from "#worker/services/notifications/inbox.ts";
import type { CreatedComment } from "#worker/events/index.ts";
import { KIND_LABELS, NOTIFICATION_KINDS, type NotificationKind } from "#worker/services/notifications/texts.ts";
import { DomainError } from "#worker/services/shared/errors.ts";
import { verifyLink } from "#worker/services/signed-links.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { visibleBlogsWhere } from "#worker/services/blogs/visible.ts";

export type { NotificationJob } from "#worker/queues/messages.ts";

/** Followers one fan-out job notifies before queuing the next (D1 binds at most 100 values a statement). */
export const POST_FANOUT_PAGE = 50;
/** The digest only takes notifications older than this, so the instant path always runs first. */
export const DIGEST_SETTLE_MS = 5 * 60 * 1000;

const n = schema.notifications;
/**
 * In-app notifications and their email. They are personal: no shared cached answer ever
 * shows one (the bell's count comes from the signed-in, uncached layout or GET /api/notifications/unread),
 * so their writes purge nothing.
 */
export function createNotificationService(k: Kernel, deps: { mailer: Mailer }) {
  const { db, env, origin } = k;
  const secret = () => k.config.sessionSecret;
  const mail = createNotificationMail(k, deps);

  function queue(): Queue<NotificationJob> {
    if (!env.NOTIFY_QUEUE) throw new Error("the NOTIFY_QUEUE binding is missing ([[queues.producers]])");
    return env.NOTIFY_QUEUE;
  }

  /** Records one notification (idempotent by its key) and applies the person's email choice. */
  async function record(
    userId: string,
    kind: NotificationKind,
    key: string,
    facts: { actorId?: string | null; blogId?: string | null; commentId?: string | null; privateReplyId?: string },
  ): Promise<void> {
    const inserted = await db
      .insert(n)
      .values({ id: newId(), userId, kind, dedupeKey: key, ...facts })
      .onConflictDoNothing()
      .returning({ id: n.id });
    if (inserted.length) await mail.applyChoices(inserted.map((r) => r.id));
  }

  async function notifyPost(job: Extract<NotificationJob, { kind: "notify-post" }>): Promise<void> {
    const post = await db.query.blogs.findFirst({
      where: visibleBlogsWhere(eq(schema.blogs.id, job.blogId)),
      columns: { id: true, authorId: true },
    });
    if (!post) return;
    const f = schema.follows;
    const page = await db
      .select({ id: f.followerId })
      .from(f)
      .where(and(eq(f.writerId, post.authorId), gt(f.followerId, job.after)))
      .orderBy(f.followerId)
      .limit(POST_FANOUT_PAGE);
    if (page.length === 0) return;
    const rows = page.map((p) => ({
      id: newId(),
      userId: p.id,
      kind: "post" as const,
      dedupeKey: `post:${post.id}`,
      actorId: post.authorId,
      blogId: post.id,
    }));
    const inserts: BatchItem<"sqlite">[] = [];
    for (let i = 0; i < rows.length; i += 14)
      inserts.push(
        db
          .insert(n)
          .values(rows.slice(i, i + 14))
          .onConflictDoNothing(),
      );
    await db.batch(inserts as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    // Every row of this page whose email choice is still open: a retried job mails what it missed, once.
    const open = await db
      .select({ id: n.id })
      .from(n)
      .where(
        and(
          inArray(
            n.userId,
            page.map((p) => p.id),
          ),
          eq(n.dedupeKey, `post:${post.id}`),
          isNull(n.emailedAt),
        ),
      );
    await mail.applyChoices(open.map((o) => o.id));
    if (page.length === POST_FANOUT_PAGE) {
      await queue().send(
        { kind: "notify-post", blogId: post.id, after: page[page.length - 1]!.id, origin: job.origin },
        { contentType: "json" },
      );
    }
  }

  /** A notification is a side effect: its failure is logged and never fails what caused it. */
  async function safely(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      logError("notifications: could not record a notification", err);
    }
  }

  /** A like: one notification per post and UTC day, whose count is that day's likes of the post. */
  async function recordLike(actor: Actor, blogId: string, now: number): Promise<void> {
    const post = await db.query.blogs.findFirst({ where: eq(schema.blogs.id, blogId), columns: { authorId: true } });
    if (!post || post.authorId === actor.id) return;
    const day = new Date(now).toISOString().slice(0, 10);
    const start = Date.parse(`${day}T00:00:00.000Z`);
    const likes = sql<number>`(select count(*) from ${schema.blogLikes} where ${schema.blogLikes.blogId} = ${blogId} and ${schema.blogLikes.createdAt} >= ${start} and ${schema.blogLikes.createdAt} < ${start + 86_400_000})`;
    const rows = await db
      .insert(n)
      .values({
        id: newId(),
        userId: post.authorId,
        kind: "like",
        dedupeKey: `like:${blogId}:${day}`,
        actorId: actor.id,
        blogId,
        count: likes,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [n.userId, n.dedupeKey],
        set: { count: likes, actorId: actor.id, updatedAt: now, readAt: null },
      })
      .returning({ id: n.id, emailedAt: n.emailedAt });
    const open = rows.filter((r) => r.emailedAt === null).map((r) => r.id);
    if (open.length) await mail.applyChoices(open);
  }

  return {
    ...createNotificationInbox(k),

    /**
     * A comment or reply was stored: the post's writer hears of it (never of their own), and for a reply
     * the person answered, once, even when they also wrote the post. Never fails the comment.
     */
    async commented(c: CreatedComment): Promise<void> {
      await safely(async () => {
        const [posts, parents] = await db.batch([
          db.select({ authorId: schema.blogs.authorId }).from(schema.blogs).where(eq(schema.blogs.id, c.blogId)),
          db
            .select({ userId: schema.comments.userId })
            .from(schema.comments)
            .where(eq(schema.comments.id, c.parentId ?? "")),
        ]);
        const postAuthor = posts[0]?.authorId;
        const parentAuthor = c.parentId ? parents[0]?.userId : undefined;
        const facts = { actorId: c.userId, blogId: c.blogId, commentId: c.insertedId };
        if (parentAuthor && parentAuthor !== c.userId)
          await record(parentAuthor, "reply", `reply:${c.insertedId}`, facts);
        if (postAuthor && postAuthor !== c.userId && postAuthor !== parentAuthor)
          await record(postAuthor, "comment", `comment:${c.insertedId}`, facts);
      });
    },

    /** A reply from the fediverse addressed to the writer alone: for them only, as a comment notification. */
    async repliedPrivately(reply: { id: string; userId: string; blogId: string }): Promise<void> {
      await safely(() =>
        record(reply.userId, "comment", `private:${reply.id}`, { blogId: reply.blogId, privateReplyId: reply.id }),
      );
    },

    /** The minute cron: comments and replies that came in together go out as one message. */
    flushBatches: (now?: number) => mail.flushBatches(now),

    /** What a one-click unsubscribe link (List-Unsubscribe of a batched mail) turns off; 400 when forged. */
    async unsubscribeInfo(token: unknown): Promise<{ userId: string; kind: NotificationKind }> {
      const fields = await verifyLink(secret(), UNSUBSCRIBE_PURPOSE, token, 2);
      const kind = fields?.[1] as NotificationKind | undefined;
      if (!fields || !kind || !(NOTIFICATION_KINDS as readonly string[]).includes(kind)) {
        throw new DomainError("invalid-token", "This unsubscribe link is not valid.");
      }
      return { userId: fields[0]!, kind };
    },

    /** One click (RFC 8058): that kind of notification is no longer mailed to that person. */
    async unsubscribe(token: unknown): Promise<{ kind: NotificationKind; label: string }> {
      const { userId, kind } = await this.unsubscribeInfo(token);
      const user = await db.query.users.findFirst({ where: eq(schema.users.id, userId), columns: { id: true } });
      if (!user) throw new DomainError("invalid-token", "This unsubscribe link is not valid.");
      const prefs = createNotificationInbox(k);
      await prefs.setPrefs({ id: userId } as Actor, { [kind]: "off" });
      return { kind, label: KIND_LABELS[kind] };
    },

    /** Someone started following a writer. Never fails the follow. */
    async followed(actor: Actor, writerId: string) {
      await safely(() => record(writerId, "follow", `follow:${actor.id}`, { actorId: actor.id }));
    },

    /** A like (summed per post and day). Never fails the like. */
    async liked(actor: Actor, blogId: string, now = Date.now()) {
      await safely(() => recordLike(actor, blogId, now));
    },

    /** A post just became public: its writer's followers hear of it, through the queue, once each. */
    async announce(blogId: string): Promise<void> {
      try {
        await queue().send({ kind: "notify-post", blogId, after: "", origin }, { contentType: "json" });
      } catch (err) {
        logError("notifications: could not queue a fan-out", err, { blogId });
      }
    },

    /** The daily cron: the digest walks everyone with open notifications, a page per job. */
    async startDigest(now = Date.now()): Promise<void> {
      await queue().send(
        { kind: "digest", after: "", cutoff: now - DIGEST_SETTLE_MS, origin },
        { contentType: "json" },
      );
    },

    /** The queue consumer's work for one message. Idempotent. */
    async run(job: NotificationJob): Promise<void> {
      if (job.kind === "notify-post") return notifyPost(job);
      const last = await mail.digestPage(job.after, job.cutoff);
      if (last) await queue().send({ ...job, after: last }, { contentType: "json" });
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
