import { and, count, desc, eq, gt, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import { logError } from "#worker/log.ts";
import { createNotificationMail } from "#worker/services/notifications/mail.ts";
import type { CreatedComment } from "#worker/services/comments.ts";
import {
  DEFAULT_PREFS,
  describe,
  EMAIL_CHOICES,
  targetOf,
  type NotificationKind,
  type NotificationPrefs,
} from "#worker/services/notifications/texts.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { visibleBlog, visibleBlogsWhere } from "#worker/services/visible-blogs.ts";

/** Work on the notifications queue (wrangler.toml): a new post's fan-out to followers, the daily digest. */
export type NotificationJob =
  | { kind: "notify-post"; blogId: string; after: string; origin: string | null }
  | { kind: "digest"; after: string; cutoff: number; origin: string | null };

export const isNotificationJob = (body: unknown): body is NotificationJob =>
  typeof body === "object" && body !== null && ["notify-post", "digest"].includes((body as { kind: string }).kind);

/** Followers one fan-out job notifies before queuing the next (D1 binds at most 100 values a statement). */
export const POST_FANOUT_PAGE = 50;
export const NOTIFICATIONS_PAGE = 20;
/** The digest only takes notifications older than this, so the instant path always runs first. */
export const DIGEST_SETTLE_MS = 5 * 60 * 1000;

/** A notification as /notifications and GET /api/notifications show it. */
export interface NotificationView {
  _id: string;
  kind: NotificationKind;
  text: string;
  url: string;
  count: number;
  read: boolean;
  actor: { _id: string; name: string; photoURL: string | null } | null;
  blog: { _id: string; title: string } | null;
  /** ISO 8601: when it happened (for likes, the latest like of that day). */
  updated_at: string;
}

const n = schema.notifications;
const actors = alias(schema.users, "actors");
const prefsInput = z.object(
  Object.fromEntries(Object.keys(DEFAULT_PREFS).map((k) => [k, z.enum(EMAIL_CHOICES).optional()])) as Record<
    NotificationKind,
    z.ZodOptional<z.ZodEnum<{ off: "off"; instant: "instant"; digest: "digest" }>>
  >,
);
const readInput = z.object({ ids: z.array(z.string().max(40)).max(100).optional() });

/** A notification about a post only shows while the post is public (a draft never leaks through the bell). */
const shown = () => or(isNull(n.blogId), isNotNull(schema.blogs.id));

/**
 * In-app notifications and their email (issue 21). They are personal: no shared cached answer ever
 * shows one (the bell's count comes from the signed-in, uncached layout or GET /api/notifications/unread),
 * so their writes purge nothing.
 */
export function createNotificationService(db: Db, env: Env, deps: { mailer: Mailer; origin?: string | null }) {
  const origin = deps.origin ?? null;
  const mail = createNotificationMail(db, deps.mailer, origin);

  function queue(): Queue<NotificationJob> {
    if (!env.NOTIFY_QUEUE) throw new Error("the NOTIFY_QUEUE binding is missing ([[queues.producers]])");
    return env.NOTIFY_QUEUE;
  }

  /** Records one notification (idempotent by its key) and applies the person's email choice. */
  async function record(
    userId: string,
    kind: NotificationKind,
    key: string,
    facts: { actorId?: string | null; blogId?: string | null; commentId?: string | null },
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

    async list(actor: Actor | null, input: { page?: unknown; limit?: unknown } = {}): Promise<Page<NotificationView>> {
      const user = requireUser(actor);
      const paging = parsePaging(input, NOTIFICATIONS_PAGE);
      const mine = and(eq(n.userId, user.id), shown());
      const [rows, totals] = await db.batch([
        db
          .select({
            id: n.id,
            kind: n.kind,
            count: n.count,
            readAt: n.readAt,
            updatedAt: n.updatedAt,
            actorId: n.actorId,
            actorName: actors.name,
            actorPhoto: actors.photoUrl,
            blogId: n.blogId,
            blogTitle: schema.blogs.title,
          })
          .from(n)
          .leftJoin(actors, eq(actors.id, n.actorId))
          .leftJoin(schema.blogs, and(eq(schema.blogs.id, n.blogId), visibleBlog()))
          .where(mine)
          .orderBy(desc(n.updatedAt), desc(n.id))
          .limit(paging.limit)
          .offset(paging.offset),
        db
          .select({ total: count() })
          .from(n)
          .leftJoin(schema.blogs, and(eq(schema.blogs.id, n.blogId), visibleBlog()))
          .where(mine),
      ]);
      return toPage(
        rows.map((r) => ({
          _id: r.id,
          kind: r.kind,
          text: describe(r),
          url: targetOf(r),
          count: r.count,
          read: r.readAt !== null,
          actor: r.actorId ? { _id: r.actorId, name: r.actorName ?? "", photoURL: r.actorPhoto } : null,
          blog: r.blogId && r.blogTitle !== null ? { _id: r.blogId, title: r.blogTitle } : null,
          updated_at: new Date(r.updatedAt).toISOString(),
        })),
        totals[0]?.total ?? 0,
        paging,
      );
    },

    /** The bell's number: unread notifications still worth showing. */
    async unread(actor: Actor | null): Promise<number> {
      const user = requireUser(actor);
      const [row] = await db
        .select({ total: count() })
        .from(n)
        .leftJoin(schema.blogs, and(eq(schema.blogs.id, n.blogId), visibleBlog()))
        .where(and(eq(n.userId, user.id), isNull(n.readAt), shown()));
      return row?.total ?? 0;
    },

    /** Marks some (`ids`) or all of the person's notifications read. */
    async markRead(actor: Actor | null, input: unknown = {}, now = Date.now()): Promise<{ modifiedCount: number }> {
      const user = requireUser(actor);
      const { ids } = parse(readInput, input ?? {});
      const done = await db
        .update(n)
        .set({ readAt: now })
        .where(and(eq(n.userId, user.id), isNull(n.readAt), ids ? inArray(n.id, ids.length ? ids : [""]) : undefined))
        .returning({ id: n.id });
      return { modifiedCount: done.length };
    },

    async prefs(actor: Actor | null): Promise<NotificationPrefs> {
      const user = requireUser(actor);
      const row = await db.query.notificationPrefs.findFirst({
        where: eq(schema.notificationPrefs.userId, user.id),
      });
      if (!row) return { ...DEFAULT_PREFS };
      return { comment: row.comment, reply: row.reply, follow: row.follow, post: row.post, like: row.like };
    },

    /** Changes the email choice of the kinds given (others keep theirs). */
    async setPrefs(actor: Actor | null, input: unknown, now = Date.now()): Promise<NotificationPrefs> {
      const user = requireUser(actor);
      const changes = Object.fromEntries(Object.entries(parse(prefsInput, input)).filter(([, v]) => v !== undefined));
      const next = { ...(await this.prefs(user)), ...changes } as NotificationPrefs;
      await db
        .insert(schema.notificationPrefs)
        .values({ userId: user.id, ...next, updatedAt: now })
        .onConflictDoUpdate({ target: schema.notificationPrefs.userId, set: { ...next, updatedAt: now } });
      return next;
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
