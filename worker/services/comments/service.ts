import { and, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import type { CreatedComment } from "#worker/events/index.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import { Forbidden, NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped, newId } from "#worker/services/shared/ids.ts";
import { canRemoveComment, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { LIMITS, parse, requiredText } from "#worker/services/shared/validation.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import {
  COMMENTS_PAGE,
  REPLIES_SHOWN,
  commentsQuery,
  moreRepliesQuery,
  repliesQuery,
  toCommentPage,
  toReplyPage,
  topCommentCountQuery,
  type Comment,
  type Thread,
} from "#worker/services/comments/queries.ts";

import {
  WRITER_COMMENTS_PAGE,
  commentsOnWritersPosts,
  type CommentOnPost,
} from "#worker/services/comments/on-writers-posts.ts";

export * from "#worker/services/comments/queries.ts";
export type { CommentOnPost } from "#worker/services/comments/on-writers-posts.ts";
export type { CreatedComment } from "#worker/events/index.ts";

export const COMMENTS_PER_WINDOW = 20;
export const COMMENT_WINDOW_SECONDS = 10 * 60;

export const commentInput = z.object({
  body: requiredText("Comment", LIMITS.comment),
  // The comment a reply answers (a reply to a reply answers the same top comment).
  parent_id: z
    .string({ error: "The comment to reply to must be an id." })
    .trim()
    .optional()
    .nullable()
    .transform((v) => v || null),
});

/**
 * Comments and replies. A new one emits `comment.created` after its write (notifications listen); a
 * subscriber's failure is its own to handle: the comment is made either way.
 */
export function createCommentService(k: Kernel) {
  const { db, rateLimit, purge, events } = k;
  /** The top comment a reply to `id` attaches to, on the same blog (one level of replies). */
  async function threadOf(blogId: string, id: string): Promise<string> {
    if (!isIdShaped(id)) throw new NotFound("Comment not found.", "comment-not-found");
    const parent = await db.query.comments.findFirst({
      where: and(eq(schema.comments.id, id), eq(schema.comments.blogId, blogId)),
      columns: { id: true, parentId: true },
    });
    if (!parent) throw new NotFound("Comment not found.", "comment-not-found");
    return parent.parentId ?? parent.id;
  }

  return {
    /**
     * A visible blog's top comments, newest first, a page at a time, each with its first replies
     * (GET /api/blogs/{id}/comments and the post page's "Show more"): by `cursor` or by `page`/`limit`.
     */
    async list(
      blogId: string,
      input: { page?: unknown; limit?: unknown; cursor?: unknown } = {},
    ): Promise<Page<Thread> & { next: string | null }> {
      const paging = parsePaging(input, COMMENTS_PAGE);
      if (!isIdShaped(blogId)) throw new NotFound("Blog not found.");
      const at = { cursor: input.cursor, offset: paging.offset, limit: paging.limit };
      const [blogs, rows, replies, totals] = await db.batch([
        db
          .select({ id: schema.blogs.id })
          .from(schema.blogs)
          .where(visibleBlogsWhere(eq(schema.blogs.id, blogId)))
          .limit(1),
        commentsQuery(db, blogId, at),
        repliesQuery(db, blogId, at),
        topCommentCountQuery(db, blogId),
      ]);
      if (!blogs[0]) throw new NotFound("Blog not found.");
      const { items, next } = toCommentPage(rows, replies, paging.limit);
      const hasCursor = input.cursor !== undefined && input.cursor !== "";
      return { ...toPage(items, totals[0]?.total ?? 0, hasCursor ? { ...paging, page: 1 } : paging), next };
    },

    /** A top comment's replies on a visible blog, oldest first, after `cursor` (GET /api/comments/{id}/replies). */
    async replies(
      commentId: string,
      input: { limit?: unknown; cursor?: unknown } = {},
    ): Promise<Page<Comment> & { next: string | null }> {
      const paging = parsePaging({ limit: input.limit }, REPLIES_SHOWN);
      if (!isIdShaped(commentId)) throw new NotFound("Comment not found.", "comment-not-found");
      const [tops, rows, totals] = await db.batch([
        db
          .select({ id: schema.comments.id })
          .from(schema.comments)
          .innerJoin(schema.blogs, eq(schema.blogs.id, schema.comments.blogId))
          .where(visibleBlogsWhere(eq(schema.comments.id, commentId)))
          .limit(1),
        moreRepliesQuery(db, commentId, { cursor: input.cursor, limit: paging.limit }),
        db.select({ total: count() }).from(schema.comments).where(eq(schema.comments.parentId, commentId)),
      ]);
      if (!tops[0]) throw new NotFound("Comment not found.", "comment-not-found");
      const { items, next } = toReplyPage(rows, paging.limit);
      return { ...toPage(items, totals[0]?.total ?? 0, { page: 1, limit: paging.limit }), next };
    },

    /**
     * The one way a comment or a reply is made (the post page, the REST call). `parent_id` makes it a
     * reply: to a reply, it attaches to that reply's top comment.
     */
    async create(actor: Actor | null, blogId: string, input: unknown): Promise<CreatedComment> {
      const user = requireUser(actor);
      const { body, parent_id } = parse(commentInput, input);
      if (!isIdShaped(blogId)) throw new NotFound("Blog not found.");
      const parentId = parent_id ? await threadOf(blogId, parent_id) : null;
      await rateLimit.hit(`comment:${user.id}`, COMMENTS_PER_WINDOW, COMMENT_WINDOW_SECONDS);
      const id = newId();
      // Insert-select from blogs: an unknown blog (or a parent deleted meanwhile) inserts nothing
      // instead of failing a foreign key.
      const parentExists = parentId
        ? sql`exists (select 1 from ${schema.comments} where ${schema.comments.id} = ${parentId})`
        : undefined;
      const inserted = await db
        .insert(schema.comments)
        .select(
          db
            .select({
              id: sql<string>`${id}`.as("id"),
              blogId: schema.blogs.id,
              userId: sql<string>`${user.id}`.as("user_id"),
              body: sql<string>`${body}`.as("body"),
              parentId: sql<string | null>`${parentId}`.as("parent_id"),
              createdAt: sql<number>`${Date.now()}`.as("created_at"),
            })
            .from(schema.blogs)
            .where(visibleBlogsWhere(and(eq(schema.blogs.id, blogId), parentExists))),
        )
        .returning({ id: schema.comments.id });
      if (!inserted.length) {
        throw parentId ? new NotFound("Comment not found.", "comment-not-found") : new NotFound("Blog not found.");
      }
      await purge({ kind: "blog.reaction", blogId });
      const created: CreatedComment = { insertedId: id, blogId, parentId, userId: user.id };
      await events.emit("comment.created", created);
      return created;
    },

    /**
     * A writer's /dashboard/comments: every comment and reply on their own posts, newest first, a page at
     * a time (each of them theirs to delete, by canRemoveComment). Nobody else's posts are read.
     */
    async onMyPosts(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown } = {},
    ): Promise<Page<CommentOnPost>> {
      const user = requireUser(actor);
      return commentsOnWritersPosts(db, user.id, parsePaging(input, WRITER_COMMENTS_PAGE));
    },

    /** Its author, the post's writer, or an admin (canRemoveComment). A top comment takes its replies along. */
    async remove(actor: Actor | null, commentId: string): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      if (!isIdShaped(commentId)) throw new NotFound("Comment not found.", "comment-not-found");
      const [row] = await db
        .select({
          id: schema.comments.id,
          userId: schema.comments.userId,
          blogId: schema.comments.blogId,
          blogAuthorId: schema.blogs.authorId,
        })
        .from(schema.comments)
        .innerJoin(schema.blogs, eq(schema.blogs.id, schema.comments.blogId))
        .where(eq(schema.comments.id, commentId))
        .limit(1);
      if (!row) throw new NotFound("Comment not found.", "comment-not-found");
      if (!canRemoveComment(user, row)) {
        throw new Forbidden("Only its author, the post's writer or an admin can delete this comment.");
      }
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
