import { and, eq, inArray, lte } from "drizzle-orm";
import type { Purge } from "#worker/cache/purge.ts";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";

/** The most scheduled posts one run of the minute cron publishes. */
export const PUBLISH_BATCH = 100;

/**
 * The scheduling sweep (a cron every minute): scheduled posts whose time has come become published,
 * and the cached pages that list them are purged. (The visible-blogs rule shows them from their time
 * on anyway; the sweep makes the status true and the cache fresh.)
 */
/** `published`: tells the newsletter and the federation a post just went public. */
export async function publishDue(
  db: Db,
  purge: Purge,
  published: (blogId: string) => Promise<void>,
  now = Date.now(),
): Promise<number> {
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
    await published(id);
  }
  return due.length;
}
