import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Purge } from "#worker/cache/purge.ts";
import type { CreatedComment } from "#worker/services/comments/service.ts";
import type { RemoteActor } from "#worker/services/federation/remote.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { visibleBlogsWhere } from "#worker/services/blogs/visible.ts";

/**
 * Replies from the fediverse are ordinary comments (so they list, report and delete like any other),
 * written under one account that stands for "someone on another server": it has no password, no
 * Google link and no passkey, so nobody can sign in as it. ap_comments ties each such comment to the
 * remote note and account it came from, whose name, avatar and profile link the comment shows.
 */
export const FEDIVERSE_USER_ID = "fediverseremoteauthor";
const FEDIVERSE_EMAIL = "fediverse@fediverse.invalid";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** A note's HTML as the plain text a comment holds: line breaks kept, every tag dropped, entities decoded. */
export function noteToText(content: unknown, max: number = LIMITS.comment): string {
  if (typeof content !== "string") return "";
  const text = content
    .slice(0, 64 * 1024)
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p\s*>/gi, "\n\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1]?.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  // Control characters (other than tab and newline) never reach a comment.
  const printable = [...text].filter((ch) => ch.charCodeAt(0) >= 32 || ch === "\n" || ch === "\t").join("");
  return printable.slice(0, max);
}

/**
 * `onCreated`: the same hook local comments run (notifications): the post's writer hears of a reply
 * from the fediverse like any other comment.
 */
export function createRemoteComments(
  db: Db,
  purge: Purge,
  onCreated: (comment: CreatedComment) => Promise<void> = async () => {},
) {
  async function ensureAuthor() {
    await db
      .insert(schema.users)
      .values({ id: FEDIVERSE_USER_ID, name: "Fediverse", email: FEDIVERSE_EMAIL, role: "user" })
      .onConflictDoNothing();
  }

  return {
    /** A reply to a visible post becomes a comment (once per note). Answers whether one was written. */
    async add(sender: RemoteActor, blogId: string, noteId: string, text: string): Promise<boolean> {
      const blog = await db
        .select({ id: schema.blogs.id })
        .from(schema.blogs)
        .where(visibleBlogsWhere(eq(schema.blogs.id, blogId)))
        .limit(1);
      if (!blog[0]) return false;
      const known = await db.query.apComments.findFirst({ where: eq(schema.apComments.noteId, noteId) });
      if (known) return false;
      await ensureAuthor();
      const commentId = newId();
      await db.batch([
        db.insert(schema.comments).values({ id: commentId, blogId, userId: FEDIVERSE_USER_ID, body: text }),
        db.insert(schema.apComments).values({ noteId, commentId, remoteId: sender.id }),
      ]);
      await purge({ kind: "blog.reaction", blogId });
      await onCreated({ insertedId: commentId, blogId, parentId: null, userId: FEDIVERSE_USER_ID });
      return true;
    },

    /** A Delete of a note removes its comment (only its own author's Delete does). */
    async remove(remoteId: string, noteId: string): Promise<boolean> {
      const row = await db.query.apComments.findFirst({
        where: and(eq(schema.apComments.noteId, noteId), eq(schema.apComments.remoteId, remoteId)),
      });
      if (!row) return false;
      const gone = await db
        .delete(schema.comments)
        .where(eq(schema.comments.id, row.commentId))
        .returning({ blogId: schema.comments.blogId });
      for (const { blogId } of gone) await purge({ kind: "blog.reaction", blogId });
      return gone.length > 0;
    },

    /** Every comment of a remote account (its account was deleted, or an admin blocked it). */
    async removeAllOf(remoteIds: string | string[]): Promise<number> {
      const ids = Array.isArray(remoteIds) ? remoteIds : [remoteIds];
      if (ids.length === 0) return 0;
      const rows = await db
        .select({ commentId: schema.apComments.commentId })
        .from(schema.apComments)
        .where(inArray(schema.apComments.remoteId, ids))
        .limit(500);
      if (!rows.length) return 0;
      const gone = await db
        .delete(schema.comments)
        .where(
          inArray(
            schema.comments.id,
            rows.map((r) => r.commentId),
          ),
        )
        .returning({ blogId: schema.comments.blogId });
      for (const blogId of new Set(gone.map((g) => g.blogId))) await purge({ kind: "blog.reaction", blogId });
      return gone.length;
    },
  };
}

export type RemoteComments = ReturnType<typeof createRemoteComments>;
