import { count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { commentColumns, remoteAuthor, toComment, type Comment } from "#worker/services/comments/queries.ts";
import { toPage, type Page, type Paging } from "#worker/services/shared/pagination.ts";

/** A writer's dashboard shows the comments on their posts this many at a time. */
export const WRITER_COMMENTS_PAGE = 20;

/** A comment as a writer's /dashboard/comments lists it: with the post it is under. */
export interface CommentOnPost extends Comment {
  blog: { _id: string; title: string };
}

/**
 * Every comment and reply under one writer's posts (drafts included: they are the writer's own), newest
 * first, and their number: one round trip. Only the writer's posts are read, so no comment under another
 * writer's post can ever be on the page.
 */
export async function commentsOnWritersPosts(db: Db, writerId: string, paging: Paging): Promise<Page<CommentOnPost>> {
  const t = schema.comments;
  const [rows, totals] = await db.batch([
    db
      .select({
        ...commentColumns(t),
        postTitle: sql<string>`${schema.blogs.title}`.as("post_title"),
      })
      .from(t)
      .innerJoin(schema.blogs, eq(schema.blogs.id, t.blogId))
      .innerJoin(schema.users, eq(schema.users.id, t.userId))
      .leftJoin(...remoteAuthor(t)[0])
      .leftJoin(...remoteAuthor(t)[1])
      .where(eq(schema.blogs.authorId, writerId))
      .orderBy(desc(t.createdAt), desc(sql`${t}.rowid`))
      .limit(paging.limit)
      .offset(paging.offset),
    db
      .select({ total: count() })
      .from(t)
      .innerJoin(schema.blogs, eq(schema.blogs.id, t.blogId))
      .where(eq(schema.blogs.authorId, writerId)),
  ]);
  const items = rows.map((row): CommentOnPost => ({
    ...toComment(row),
    blog: { _id: row.blogId, title: row.postTitle },
  }));
  return toPage(items, totals[0]?.total ?? 0, paging);
}
