import { eq } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { OUTREACH_HELD_TEXT } from "#worker/services/texts.ts";

/**
 * Outreach is what a post sends beyond the site when it goes public: the newsletter to every confirmed
 * subscriber and the followers' notifications (both mail from the site's address), and the fediverse.
 * It needs a writer whose address is proven: anyone can sign up with any address, and an account nobody
 * has proven must not speak to other people's inboxes in the site's name. The post itself still
 * publishes on the site. Each write of a post asks `writerVerified` right after its batch and emits
 * `post.published` / `post.changed` only when it holds (writing.ts, revisions.ts, publisher.ts); checked
 * when the post goes public, so a scheduled post goes out if its writer confirmed meanwhile.
 */

/** A new post's id, and `notice` when it went out on the site only (its writer is unverified). */
export type Created = { insertedId: string; notice?: string };

/** The post's writer has a verified address: true, false, or null when the post is gone (a delete). */
export async function writerVerified(db: Db, blogId: string): Promise<boolean | null> {
  const [row] = await db
    .select({ verifiedAt: schema.users.emailVerifiedAt })
    .from(schema.blogs)
    .innerJoin(schema.users, eq(schema.users.id, schema.blogs.authorId))
    .where(eq(schema.blogs.id, blogId))
    .limit(1);
  if (!row) return null;
  return row.verifiedAt !== null;
}

/**
 * What the writer is told when they publish (or schedule) while unverified: the page's message after
 * Post Blog and the API's `notice`. Null when outreach goes as usual.
 */
export function outreachNotice(actor: Actor, status: string): string | null {
  if (actor.emailVerified || status === "draft") return null;
  return OUTREACH_HELD_TEXT;
}
