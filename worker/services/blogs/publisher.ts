import { and, eq, inArray, lte } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { writerVerified } from "#worker/services/blogs/outreach.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** The most scheduled posts one run of the minute cron publishes. */
export const PUBLISH_BATCH = 100;

/**
 * The scheduling sweep (a cron every minute): scheduled posts whose time has come become published,
 * and the cached pages that list them are purged. (The visible-blogs rule shows them from their time
 * on anyway; the sweep makes the status true and the cache fresh.) Each post of a verified writer
 * then emits `post.published` and `post.changed`: the newsletter, the followers and the fediverse.
 */
export async function publishDue(k: Kernel, now = Date.now()): Promise<number> {
  const { db, purge, events } = k;
  // At most PUBLISH_BATCH a run, from the scheduled-posts index: the rest go next minute (they are
  // already visible from their time on; only the status and the cache wait).
  const due = await db
    .update(schema.blogs)
    .set({ status: "published", updatedAt: now })
    .where(
      inArray(
        schema.blogs.id,
        db
          .select({ id: schema.blogs.id })
          .from(schema.blogs)
          .where(and(eq(schema.blogs.status, "scheduled"), lte(schema.blogs.publishAt, now)))
          .orderBy(schema.blogs.publishAt)
          .limit(PUBLISH_BATCH),
      ),
    )
    .returning({ id: schema.blogs.id });
  for (const { id } of due) {
    await purge({ kind: "blog.changed", blogId: id });
    // Checked now, so a scheduled post goes out if its writer confirmed their address meanwhile.
    const verified = await writerVerified(db, id);
    if (verified) await events.emit("post.published", { blogId: id });
    if (verified !== false) await events.emit("post.changed", { blogId: id });
  }
  return due.length;
}
