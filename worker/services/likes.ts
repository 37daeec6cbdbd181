import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Whether this user likes this blog, as an un-sent query a page loader can batch. */
export function likedQuery(db: Db, blogId: string, userId: string) {
  return db
    .select({ one: sql<number>`1` })
    .from(schema.blogLikes)
    .where(and(eq(schema.blogLikes.blogId, blogId), eq(schema.blogLikes.userId, userId)))
    .limit(1);
}

/**
 * blogs.likes is recomputed from blog_likes inside the same batch (one D1 transaction) as the change,
 * never incremented: concurrent likes can then never lose or double a count.
 */
function recount(db: Db, blogId: string) {
  return (
    db
      .update(schema.blogs)
      .set({ likes: sql`(select count(*) from ${schema.blogLikes} where ${schema.blogLikes.blogId} = ${blogId})` })
      // Only a post readers can see takes likes: a draft answers "not found", like an unknown id.
      .where(visibleBlogsWhere(eq(schema.blogs.id, blogId)))
      .returning({ likes: schema.blogs.likes })
  );
}

/** Likes (and unlikes) per account: plenty for reading, too few for a loop. */
export const LIKES_PER_WINDOW = 30;
export const LIKE_WINDOW_SECONDS = 10 * 60;

/** Likes. A new like emits `post.liked` after its batch: the post's writer hears of it (summed per post and day). */
export function createLikeService(k: Kernel) {
  const { db, purge, rateLimit, events } = k;
  return {
    /**
     * A signed-in user's like, stored once per user and blog; pressing again takes it back.
     * One round trip to like; unliking needs a second (the first tells us the like was already there).
     */
    async toggle(actor: Actor | null, blogId: string): Promise<{ liked: boolean; likes: number }> {
      const user = requireUser(actor);
      if (!isIdShaped(blogId)) throw new NotFound("Blog not found.");
      await rateLimit.hit(`like:${user.id}`, LIKES_PER_WINDOW, LIKE_WINDOW_SECONDS);
      // Insert-select from blogs, so an unknown blog inserts nothing instead of failing the foreign key.
      const [inserted, counted] = await db.batch([
        db
          .insert(schema.blogLikes)
          .select(
            db
              .select({
                blogId: schema.blogs.id,
                userId: sql<string>`${user.id}`.as("user_id"),
                createdAt: sql<number>`${Date.now()}`.as("created_at"),
              })
              .from(schema.blogs)
              .where(visibleBlogsWhere(eq(schema.blogs.id, blogId))),
          )
          .onConflictDoNothing()
          .returning({ blogId: schema.blogLikes.blogId }),
        recount(db, blogId),
      ]);
      if (!counted[0]) throw new NotFound("Blog not found.");
      if (inserted.length) {
        await purge({ kind: "blog.like", blogId });
        await events.emit("post.liked", { actor: user, blogId });
        return { liked: true, likes: counted[0].likes };
      }

      const [, recounted] = await db.batch([
        db
          .delete(schema.blogLikes)
          .where(and(eq(schema.blogLikes.blogId, blogId), eq(schema.blogLikes.userId, user.id))),
        recount(db, blogId),
      ]);
      if (!recounted[0]) throw new NotFound("Blog not found.");
      await purge({ kind: "blog.like", blogId });
      return { liked: false, likes: recounted[0].likes };
    },
  };
}

export type LikeService = ReturnType<typeof createLikeService>;
