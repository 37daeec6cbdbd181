import { and, count, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { actorJoins, actorName, actors } from "#worker/services/notifications/actor.ts";
import {
  DEFAULT_PREFS,
  describe,
  EMAIL_CHOICES,
  targetOf,
  type NotificationKind,
  type NotificationPrefs,
} from "#worker/services/notifications/texts.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { visibleBlog } from "#worker/services/blogs/visible.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export const NOTIFICATIONS_PAGE = 20;

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
  /** A reply from the fediverse addressed to this writer alone: its text (and content warning), for them only. */
  private_reply: { _id: string; text: string; warning: string | null } | null;
  /**
   * The start of the comment or reply it is about (one line, EXCERPT_CHARS at most), so five replies to
   * one comment read as five different things; null for other kinds.
   */
  excerpt: string | null;
}

/** The longest excerpt of a comment a notification shows. */
export const EXCERPT_CHARS = 140;

function excerptOf(body: string | null): string | null {
  const text = (body ?? "").replace(/\s+/g, " ").trim();
  if (!text) return null;
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1).trimEnd()}…` : text;
}

const n = schema.notifications;
export const prefsInput = z.object(
  Object.fromEntries(Object.keys(DEFAULT_PREFS).map((k) => [k, z.enum(EMAIL_CHOICES).optional()])) as Record<
    NotificationKind,
    z.ZodOptional<z.ZodEnum<{ off: "off"; instant: "instant"; digest: "digest" }>>
  >,
);
export const readInput = z.object({ ids: z.array(z.string().max(40)).max(100).optional() });

/** A notification about a post only shows while the post is public (a draft never leaks through the bell). */
const shown = () => or(isNull(n.blogId), isNotNull(schema.blogs.id));

/** One person's notifications: the list, the bell's count, marking read, and their email choices. */
export function createNotificationInbox(k: Kernel) {
  const { db } = k;
  const inbox = {
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
            actorName,
            actorPhoto: actors.photoUrl,
            blogId: n.blogId,
            commentId: n.commentId,
            blogTitle: schema.blogs.title,
            privateReplyId: n.privateReplyId,
            privateText: schema.apPrivateReplies.body,
            privateWarning: schema.apPrivateReplies.summary,
            // Aliased: a private reply's body has the same column name.
            commentBody: sql<string | null>`${schema.comments.body}`.as("comment_body"),
          })
          .from(n)
          .leftJoin(...actorJoins[0])
          .leftJoin(...actorJoins[1])
          .leftJoin(...actorJoins[2])
          .leftJoin(...actorJoins[3])
          .leftJoin(schema.comments, eq(schema.comments.id, n.commentId))
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
          private_reply:
            r.privateReplyId && r.privateText !== null
              ? { _id: r.privateReplyId, text: r.privateText, warning: r.privateWarning }
              : null,
          // A private reply shows whole (above); a comment or reply by its start.
          excerpt: r.privateReplyId ? null : excerptOf(r.commentBody),
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

    /**
     * Opening a notification: it is marked read and answers where it leads (the comment itself for a comment
     * or reply). Someone else's or an unknown id answers null, so the caller can send them to the list.
     */
    async open(actor: Actor | null, id: string, now = Date.now()): Promise<string | null> {
      const user = requireUser(actor);
      const [row] = await db
        .update(n)
        .set({ readAt: sql`coalesce(${n.readAt}, ${now})` })
        .where(and(eq(n.userId, user.id), eq(n.id, id.slice(0, 40))))
        .returning({ kind: n.kind, actorId: n.actorId, blogId: n.blogId, commentId: n.commentId });
      return row ? targetOf(row) : null;
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
      const next = { ...(await inbox.prefs(user)), ...changes } as NotificationPrefs;
      await db
        .insert(schema.notificationPrefs)
        .values({ userId: user.id, ...next, updatedAt: now })
        .onConflictDoUpdate({ target: schema.notificationPrefs.userId, set: { ...next, updatedAt: now } });
      return next;
    },
  };
  return inbox;
}
