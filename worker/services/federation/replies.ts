import { and, eq, inArray } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { COMMENT_WINDOW_SECONDS, COMMENTS_PER_WINDOW } from "#worker/services/comments/service.ts";
import { serverKey } from "#worker/services/federation/domains.ts";
import type { RemoteActor } from "#worker/services/federation/remote.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import type { Kernel } from "#worker/services/kernel.ts";

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

/** Replies one remote account may add per window (the local limit: COMMENTS_PER_WINDOW)... */
export const REMOTE_REPLIES_PER_ACCOUNT = COMMENTS_PER_WINDOW;
/** ...and all the accounts of one remote server together... */
export const REMOTE_REPLIES_PER_SERVER = 5 * COMMENTS_PER_WINDOW;
/** ...per this many seconds (the local comment window). */
export const REMOTE_REPLY_WINDOW_SECONDS = COMMENT_WINDOW_SECONDS;

export interface RemoteReply {
  sender: RemoteActor;
  blogId: string;
  noteId: string;
  text: string;
  /** The note's content warning, or null. */
  contentWarning: string | null;
}

/**
 * A public reply emits `comment.created`, the event local comments emit (notifications): the post's writer
 * hears of a reply from the fediverse like any other comment. A reply addressed to the writer alone
 * emits `reply.private`.
 */
export function createRemoteComments(k: Kernel) {
  const { db, purge, rateLimit, events } = k;
  async function ensureAuthor() {
    await db
      .insert(schema.users)
      .values({ id: FEDIVERSE_USER_ID, name: "Fediverse", email: FEDIVERSE_EMAIL, role: "user" })
      .onConflictDoNothing();
  }

  /** The post a reply answers, if visible; the limits local commenters have, per account and per server. */
  async function accept(
    reply: RemoteReply,
    addressedTo: (userId: string) => Promise<boolean> = async () => true,
  ): Promise<{ authorId: string } | null> {
    const [blog] = await db
      .select({ authorId: schema.blogs.authorId })
      .from(schema.blogs)
      .where(visibleBlogsWhere(eq(schema.blogs.id, reply.blogId)))
      .limit(1);
    if (!blog || !(await addressedTo(blog.authorId))) return null;
    const [known, privately] = await db.batch([
      db
        .select({ id: schema.apComments.noteId })
        .from(schema.apComments)
        .where(eq(schema.apComments.noteId, reply.noteId)),
      db
        .select({ id: schema.apPrivateReplies.id })
        .from(schema.apPrivateReplies)
        .where(eq(schema.apPrivateReplies.noteId, reply.noteId)),
    ]);
    if (known.length || privately.length) return null;
    await rateLimit.hit(`comment:ap:${reply.sender.id}`, REMOTE_REPLIES_PER_ACCOUNT, REMOTE_REPLY_WINDOW_SECONDS);
    await rateLimit.hit(
      `comment:ap-host:${serverKey(reply.sender.host)}`,
      REMOTE_REPLIES_PER_SERVER,
      REMOTE_REPLY_WINDOW_SECONDS,
    );
    return blog;
  }

  return {
    /** A public reply to a visible post becomes a comment (once per note). Answers whether one was written. */
    async add(reply: RemoteReply): Promise<boolean> {
      if (!(await accept(reply))) return false;
      await ensureAuthor();
      const commentId = newId();
      await db.batch([
        db
          .insert(schema.comments)
          .values({ id: commentId, blogId: reply.blogId, userId: FEDIVERSE_USER_ID, body: reply.text }),
        db.insert(schema.apComments).values({
          noteId: reply.noteId,
          commentId,
          remoteId: reply.sender.id,
          contentWarning: reply.contentWarning,
        }),
      ]);
      await purge({ kind: "blog.reaction", blogId: reply.blogId });
      await events.emit("comment.created", {
        insertedId: commentId,
        blogId: reply.blogId,
        parentId: null,
        userId: FEDIVERSE_USER_ID,
      });
      return true;
    },

    /**
     * A reply not addressed to the public: kept for the writer alone, who is notified. Never a comment.
     * Only when the writer is among its recipients (`addressedTo`: they, or a collection of theirs): a
     * direct message to someone else, in reply to their post, is not theirs to read.
     */
    async addPrivate(reply: RemoteReply, addressedTo: (userId: string) => Promise<boolean>): Promise<boolean> {
      const blog = await accept(reply, addressedTo);
      if (!blog) return false;
      const id = newId();
      const inserted = await db
        .insert(schema.apPrivateReplies)
        .values({
          id,
          userId: blog.authorId,
          blogId: reply.blogId,
          remoteId: reply.sender.id,
          noteId: reply.noteId,
          body: reply.text,
          summary: reply.contentWarning,
        })
        .onConflictDoNothing()
        .returning({ id: schema.apPrivateReplies.id });
      if (!inserted.length) return false;
      await events.emit("reply.private", { id, userId: blog.authorId, blogId: reply.blogId });
      return true;
    },

    /** A Delete of a note removes its comment (only its own author's Delete does). */
    async remove(remoteId: string, noteId: string): Promise<boolean> {
      const privately = await db
        .delete(schema.apPrivateReplies)
        .where(and(eq(schema.apPrivateReplies.noteId, noteId), eq(schema.apPrivateReplies.remoteId, remoteId)))
        .returning({ id: schema.apPrivateReplies.id });
      if (privately.length) return true;
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
      await db.delete(schema.apPrivateReplies).where(inArray(schema.apPrivateReplies.remoteId, ids));
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
