import { desc, eq, sql } from "drizzle-orm";
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

/** A post shows its newest comments; older ones beyond this are kept but not listed. */
export const COMMENTS_SHOWN = 100;
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

/** A blog's comments with their authors, newest first, as an un-sent query a page loader can batch. */
export function commentsQuery(db: Db, blogId: string) {
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
      })
      .from(schema.comments)
      .innerJoin(schema.users, eq(schema.users.id, schema.comments.userId))
      .where(eq(schema.comments.blogId, blogId))
      // Two comments in the same millisecond still list in the order they were written.
      .orderBy(desc(schema.comments.createdAt), desc(sql`${schema.comments}.rowid`))
      .limit(COMMENTS_SHOWN)
  );
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

export function createCommentService(db: Db, rateLimit: RateLimitService, purge: Purge) {
  return {
    async list(blogId: string): Promise<Comment[]> {
      if (!isIdShaped(blogId)) return [];
      return (await commentsQuery(db, blogId)).map(toComment);
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
