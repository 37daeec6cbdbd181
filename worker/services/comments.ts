import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Purge } from "#worker/cache/purge.ts";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { visibleBlogsWhere } from "#worker/services/visible-blogs.ts";
import { Forbidden, NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped, newId } from "#worker/services/shared/ids.ts";
import { canRemoveComment, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import type { RateLimitService } from "#worker/services/rate-limit.ts";
import { LIMITS, parse, requiredText } from "#worker/services/shared/validation.ts";
import { decodeCursor, encodeCursor, parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";

/** A post shows its newest comments this many at a time; "Show more" reads the next ones (older). */
export const COMMENTS_PAGE = 20;
export const COMMENTS_PER_WINDOW = 20;
export const COMMENT_WINDOW_SECONDS = 10 * 60;

/** A comment as the blog page lists it. */
export interface Comment {
  _id: string;
  blog_id: string;
  body: string;
  /** ISO 8601. */
  created_at: string;
  author: { _id: string; name: string; photoURL: string | null };
}

const commentInput = z.object({ body: requiredText("Comment", LIMITS.comment) });

/** The comments after a cursor (the last one a reader saw): older ones, by (created_at, rowid) on the blog's index. */
function olderThan(cursor: unknown): SQL {
  const [createdAt, rowid] = decodeCursor(cursor, ["n", "n"]);
  return sql`(${schema.comments.createdAt}, ${schema.comments}.rowid) < (${createdAt}, ${rowid})`;
}

/**
 * A page of a blog's comments with their authors, newest first, as an un-sent query a page loader can
 * batch: the newest `limit`, or the `limit` after a cursor, or (API) those at `offset`. One more row is
 * read than shown, to know whether there are older ones (toCommentPage).
 */
export function commentsQuery(db: Db, blogId: string, at: { cursor?: unknown; offset?: number; limit?: number } = {}) {
  const limit = at.limit ?? COMMENTS_PAGE;
  const hasCursor = at.cursor !== undefined && at.cursor !== null && at.cursor !== "";
  return (
    db
      .select({
        id: schema.comments.id,
        blogId: schema.comments.blogId,
        body: schema.comments.body,
        createdAt: schema.comments.createdAt,
        // Not users.id: D1 batches return rows keyed by column name, so two "id" columns would collide.
        userId: schema.comments.userId,
        userName: schema.users.name,
        userPhoto: schema.users.photoUrl,
        seq: sql<number>`${schema.comments}.rowid`.as("comment_seq"),
      })
      .from(schema.comments)
      .innerJoin(schema.users, eq(schema.users.id, schema.comments.userId))
      .where(and(eq(schema.comments.blogId, blogId), hasCursor ? olderThan(at.cursor) : undefined))
      // Two comments in the same millisecond still list in the order they were written.
      .orderBy(desc(schema.comments.createdAt), desc(sql`${schema.comments}.rowid`))
      .limit(limit + 1)
      .offset(hasCursor ? 0 : (at.offset ?? 0))
  );
}

/** How many comments a blog has (counted on its index). */
export function commentCountQuery(db: Db, blogId: string) {
  return db.select({ total: count() }).from(schema.comments).where(eq(schema.comments.blogId, blogId));
}

/** The shown comments of commentsQuery's answer, and the cursor to the older ones (null when none are left). */
export function toCommentPage(rows: CommentRow[], limit = COMMENTS_PAGE): { items: Comment[]; next: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    items: shown.map(toComment),
    next: rows.length > limit && last ? encodeCursor([last.createdAt, last.seq]) : null,
  };
}

type CommentRow = Awaited<ReturnType<typeof commentsQuery>>[number];

export function toComment(row: CommentRow): Comment {
  return {
    _id: row.id,
    blog_id: row.blogId,
    body: row.body,
    created_at: new Date(row.createdAt).toISOString(),
    author: { _id: row.userId, name: row.userName, photoURL: row.userPhoto },
  };
}

export function createCommentService(
  db: Db,
  rateLimit: RateLimitService,
  purge: Purge,
  // The post's writer (and, for a reply, the person answered) hear of it: services.notifications.
  onComment: (
    actor: Actor,
    c: { commentId: string; blogId: string; parentAuthorId?: string | null },
  ) => Promise<void> = async () => {},
) {
  return {
    /**
     * A visible blog's comments, newest first, a page at a time (GET /api/blogs/{id}/comments and the
     * post page's "Show more"): by `cursor` (older than the last one seen) or by `page`/`limit`.
     */
    async list(
      blogId: string,
      input: { page?: unknown; limit?: unknown; cursor?: unknown } = {},
    ): Promise<Page<Comment> & { next: string | null }> {
      const paging = parsePaging(input, COMMENTS_PAGE);
      if (!isIdShaped(blogId)) throw new NotFound("Blog not found.");
      const [blogs, rows, totals] = await db.batch([
        db
          .select({ id: schema.blogs.id })
          .from(schema.blogs)
          .where(visibleBlogsWhere(eq(schema.blogs.id, blogId)))
          .limit(1),
        commentsQuery(db, blogId, { cursor: input.cursor, offset: paging.offset, limit: paging.limit }),
        commentCountQuery(db, blogId),
      ]);
      if (!blogs[0]) throw new NotFound("Blog not found.");
      const { items, next } = toCommentPage(rows, paging.limit);
      const hasCursor = input.cursor !== undefined && input.cursor !== "";
      return { ...toPage(items, totals[0]?.total ?? 0, hasCursor ? { ...paging, page: 1 } : paging), next };
    },

    async create(actor: Actor | null, blogId: string, input: unknown): Promise<{ insertedId: string }> {
      const user = requireUser(actor);
      const { body } = parse(commentInput, input);
      if (!isIdShaped(blogId)) throw new NotFound("Blog not found.");
      await rateLimit.hit(`comment:${user.id}`, COMMENTS_PER_WINDOW, COMMENT_WINDOW_SECONDS);
      const id = newId();
      // Insert-select from blogs: an unknown blog inserts nothing instead of failing the foreign key.
      const inserted = await db
        .insert(schema.comments)
        .select(
          db
            .select({
              id: sql<string>`${id}`.as("id"),
              blogId: schema.blogs.id,
              userId: sql<string>`${user.id}`.as("user_id"),
              body: sql<string>`${body}`.as("body"),
              createdAt: sql<number>`${Date.now()}`.as("created_at"),
            })
            .from(schema.blogs)
            .where(visibleBlogsWhere(eq(schema.blogs.id, blogId))),
        )
        .returning({ id: schema.comments.id });
      if (!inserted.length) throw new NotFound("Blog not found.");
      await purge({ kind: "blog.reaction", blogId });
      await onComment(user, { commentId: id, blogId });
      return { insertedId: id };
    },

    /** Its author or an admin. */
    async remove(actor: Actor | null, commentId: string): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      if (!isIdShaped(commentId)) throw new NotFound("Comment not found.");
      const row = await db.query.comments.findFirst({
        where: eq(schema.comments.id, commentId),
        columns: { id: true, userId: true, blogId: true },
      });
      if (!row) throw new NotFound("Comment not found.");
      if (!canRemoveComment(user, row)) throw new Forbidden("Only its author or an admin can delete this comment.");
      const deleted = await db
        .delete(schema.comments)
        .where(eq(schema.comments.id, row.id))
        .returning({ id: schema.comments.id });
      await purge({ kind: "blog.reaction", blogId: row.blogId });
      return { deletedCount: deleted.length };
    },
  };
}

export type CommentService = ReturnType<typeof createCommentService>;
