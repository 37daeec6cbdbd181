import { and, asc, count, desc, eq, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { safeLink } from "#worker/security/safe-link.ts";
import { decodeCursor, encodeCursor } from "#worker/services/shared/pagination.ts";

/** A post shows its newest comments this many at a time; "Show more" reads the next ones (older). */
export const COMMENTS_PAGE = 20;
/** Each comment shows its first replies, oldest first, this many; the rest are read a page at a time. */
export const REPLIES_SHOWN = 10;

/** A comment as the blog page lists it. */
export interface Comment {
  _id: string;
  blog_id: string;
  /** The top comment a reply answers; null for a top comment. */
  parent_id: string | null;
  body: string;
  /** A reply from the fediverse whose writer put it behind a content warning: shown collapsed behind this. */
  content_warning?: string;
  /** ISO 8601. */
  created_at: string;
  author: {
    _id: string;
    name: string;
    photoURL: string | null;
    /**
     * A reply from the fediverse: the remote account's profile page (an http(s) link, or null when the
     * remote server gave none we would link to) and `@user@server`.
     */
    remote?: { url: string | null; handle: string };
  };
}

/** A top comment with its first replies (oldest first) and how many replies it has in all. */
export interface Thread extends Comment {
  replies: Comment[];
  reply_count: number;
  /** The cursor to the replies after the shown ones (GET /api/comments/{id}/replies), null when all show. */
  replies_next: string | null;
}

type Table = typeof schema.comments;

/** Comments older than a cursor (the last one a reader saw), by (created_at, rowid) on the blog's index. */
function olderThan(t: Table, cursor: unknown): SQL {
  const [createdAt, rowid] = decodeCursor(cursor, ["n", "n"]);
  return sql`(${t.createdAt}, ${t}.rowid) < (${createdAt}, ${rowid})`;
}

/** Replies newer than a cursor (replies read oldest first). */
function newerThan(t: Table, cursor: unknown): SQL {
  const [createdAt, rowid] = decodeCursor(cursor, ["n", "n"]);
  return sql`(${t.createdAt}, ${t}.rowid) > (${createdAt}, ${rowid})`;
}

const hasCursor = (cursor: unknown) => cursor !== undefined && cursor !== null && cursor !== "";

export interface At {
  cursor?: unknown;
  offset?: number;
  limit?: number;
}

/** The columns of a listed comment with its author (never users.id: D1 batches key rows by column name). */
export function commentColumns(t: Table) {
  return {
    id: t.id,
    blogId: t.blogId,
    parentId: t.parentId,
    body: t.body,
    createdAt: t.createdAt,
    userId: t.userId,
    userName: schema.users.name,
    userPhoto: schema.users.photoUrl,
    seq: sql<number>`${t}.rowid`.as("comment_seq"),
    // A reply from the fediverse: its remote author (null for a local comment). Aliased: D1 batches key by name.
    remoteId: sql<string | null>`${schema.apRemoteActors.id}`.as("remote_id"),
    remoteName: sql<string | null>`${schema.apRemoteActors.name}`.as("remote_name"),
    remoteHandle: sql<string | null>`${schema.apRemoteActors.handle}`.as("remote_handle"),
    remoteHost: sql<string | null>`${schema.apRemoteActors.host}`.as("remote_host"),
    remoteUrl: sql<string | null>`${schema.apRemoteActors.profileUrl}`.as("remote_url"),
    remoteIcon: sql<string | null>`${schema.apRemoteActors.iconUrl}`.as("remote_icon"),
    contentWarning: sql<string | null>`${schema.apComments.contentWarning}`.as("content_warning"),
  };
}

/** The remote author of a fediverse reply, joined to every listed comment (none for local ones). */
export const remoteAuthor = (t: Table) =>
  [
    [schema.apComments, eq(schema.apComments.commentId, t.id)],
    [schema.apRemoteActors, eq(schema.apRemoteActors.id, schema.apComments.remoteId)],
  ] as const;

/**
 * A page of a blog's top comments with their authors, newest first, as an un-sent query a page loader
 * can batch: the newest `limit`, or the `limit` after a cursor, or (API) those at `offset`. One more row
 * is read than shown, to know whether there are older ones (toCommentPage).
 */
export function commentsQuery(db: Db, blogId: string, at: At = {}) {
  const limit = at.limit ?? COMMENTS_PAGE;
  const t = schema.comments;
  return (
    db
      .select(commentColumns(t))
      .from(t)
      .innerJoin(schema.users, eq(schema.users.id, t.userId))
      .leftJoin(...remoteAuthor(t)[0])
      .leftJoin(...remoteAuthor(t)[1])
      .where(and(eq(t.blogId, blogId), isNull(t.parentId), hasCursor(at.cursor) ? olderThan(t, at.cursor) : undefined))
      // Two comments in the same millisecond still list in the order they were written.
      .orderBy(desc(t.createdAt), desc(sql`${t}.rowid`))
      .limit(limit + 1)
      .offset(hasCursor(at.cursor) ? 0 : (at.offset ?? 0))
  );
}

/**
 * The first REPLIES_SHOWN replies (oldest first) of each top comment commentsQuery lists for the same
 * `at`, and each one's number of replies: one statement, so a page loader batches it with the rest.
 */
export function repliesQuery(db: Db, blogId: string, at: At = {}) {
  const limit = at.limit ?? COMMENTS_PAGE;
  const top = alias(schema.comments, "top");
  const shownTops = db
    .select({ id: top.id })
    .from(top)
    .where(
      and(
        eq(top.blogId, blogId),
        isNull(top.parentId),
        hasCursor(at.cursor) ? olderThan(top as unknown as Table, at.cursor) : undefined,
      ),
    )
    .orderBy(desc(top.createdAt), desc(sql`${top}.rowid`))
    .limit(limit + 1)
    .offset(hasCursor(at.cursor) ? 0 : (at.offset ?? 0));
  const t = schema.comments;
  const ranked = db
    .select({
      ...commentColumns(t),
      rank: sql<number>`row_number() over (partition by ${t.parentId} order by ${t.createdAt}, ${t}.rowid)`.as(
        "reply_rank",
      ),
      replies: sql<number>`count(*) over (partition by ${t.parentId})`.as("reply_total"),
    })
    .from(t)
    .innerJoin(schema.users, eq(schema.users.id, t.userId))
    .leftJoin(...remoteAuthor(t)[0])
    .leftJoin(...remoteAuthor(t)[1])
    .where(inArray(t.parentId, shownTops))
    .as("ranked");
  return db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, REPLIES_SHOWN))
    .orderBy(asc(ranked.createdAt), asc(ranked.seq));
}

/** A top comment's replies, oldest first, after a cursor (the last one a reader saw); one more than shown. */
export function moreRepliesQuery(db: Db, parentId: string, at: { cursor?: unknown; limit: number }) {
  const t = schema.comments;
  return db
    .select(commentColumns(t))
    .from(t)
    .innerJoin(schema.users, eq(schema.users.id, t.userId))
    .leftJoin(...remoteAuthor(t)[0])
    .leftJoin(...remoteAuthor(t)[1])
    .where(and(eq(t.parentId, parentId), hasCursor(at.cursor) ? newerThan(t, at.cursor) : undefined))
    .orderBy(asc(t.createdAt), asc(sql`${t}.rowid`))
    .limit(at.limit + 1);
}

/** How many comments a blog has, replies included (counted on its index): the heading's number. */
export function commentCountQuery(db: Db, blogId: string) {
  return db.select({ total: count() }).from(schema.comments).where(eq(schema.comments.blogId, blogId));
}

/** How many top comments a blog has: the API list's total. */
export function topCommentCountQuery(db: Db, blogId: string) {
  return db
    .select({ total: count() })
    .from(schema.comments)
    .where(and(eq(schema.comments.blogId, blogId), isNull(schema.comments.parentId)));
}

export type CommentRow = Awaited<ReturnType<typeof commentsQuery>>[number];
type ReplyRow = Awaited<ReturnType<typeof repliesQuery>>[number];

export function toComment(row: CommentRow): Comment {
  return {
    _id: row.id,
    blog_id: row.blogId,
    parent_id: row.parentId,
    body: row.body,
    ...(row.contentWarning ? { content_warning: row.contentWarning } : {}),
    created_at: new Date(row.createdAt).toISOString(),
    author: row.remoteId
      ? {
          _id: row.userId,
          name: row.remoteName || row.remoteHandle || row.remoteHost || "Someone on the fediverse",
          // Served through our own origin (worker/api/federation.ts): no reader's browser calls the remote server.
          photoURL: row.remoteIcon ? `/ap/avatars?actor=${encodeURIComponent(row.remoteId)}` : null,
          remote: {
            url: safeLink(row.remoteUrl) ?? safeLink(row.remoteId),
            handle: `@${row.remoteHandle}@${row.remoteHost}`,
          },
        }
      : { _id: row.userId, name: row.userName, photoURL: row.userPhoto },
  };
}

/**
 * The shown top comments of commentsQuery's answer with their replies from repliesQuery's, and the
 * cursor to the older ones (null when none are left).
 */
export function toCommentPage(
  rows: CommentRow[],
  replyRows: ReplyRow[],
  limit = COMMENTS_PAGE,
): { items: Thread[]; next: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const byParent = new Map<string, { replies: Comment[]; total: number; last: ReplyRow }>();
  for (const r of replyRows) {
    if (!r.parentId) continue;
    const entry = byParent.get(r.parentId) ?? { replies: [], total: r.replies, last: r };
    entry.replies.push(toComment(r));
    entry.last = r;
    byParent.set(r.parentId, entry);
  }
  return {
    items: shown.map((row) => {
      const thread = byParent.get(row.id);
      const more = thread && thread.total > thread.replies.length;
      return {
        ...toComment(row),
        replies: thread?.replies ?? [],
        reply_count: thread?.total ?? 0,
        replies_next: more ? encodeCursor([thread.last.createdAt, thread.last.seq]) : null,
      };
    }),
    next: rows.length > limit && last ? encodeCursor([last.createdAt, last.seq]) : null,
  };
}

/** A page of moreRepliesQuery's answer and the cursor to the next replies (null when none are left). */
export function toReplyPage(rows: CommentRow[], limit: number): { items: Comment[]; next: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    items: shown.map(toComment),
    next: rows.length > limit && last ? encodeCursor([last.createdAt, last.seq]) : null,
  };
}
