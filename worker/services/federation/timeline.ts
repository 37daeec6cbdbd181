import { and, count, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { escapeHtml } from "#worker/content/escape.ts";
import { requireVerifiedAddress, type LocalActors } from "#worker/services/federation/actors.ts";
import type { Delivery } from "#worker/services/federation/delivery.ts";
import { audienceOf, isPublic } from "#worker/services/federation/activities.ts";
import { noteToText } from "#worker/services/federation/replies.ts";
import type { RemoteActor } from "#worker/services/federation/remote.ts";
import { AS_CONTEXT, firstUrl, idOf, PUBLIC, type Urls } from "#worker/services/federation/vocab.ts";
import { safeLink } from "#worker/security/safe-link.ts";
import { Forbidden, NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped, newId } from "#worker/services/shared/ids.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { LIMITS, parse, requiredText } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** The newest posts kept of each followed remote actor (older ones are dropped as new ones come). */
export const REMOTE_POSTS_PER_ACTOR = 100;
/** The most text kept of one remote post. */
export const REMOTE_POST_MAX_CHARS = 20_000;
/** Remote posts shown per page of /fediverse. */
export const TIMELINE_PAGE = 10;
/** Replies one account may send to the fediverse per hour. */
export const REPLIES_PER_HOUR = 30;

export const replyInput = z.object({
  in_reply_to: z.string({ error: "Choose the post to reply to." }).trim().min(1).max(1000),
  body: requiredText("Reply", LIMITS.comment),
});

export interface TimelinePost {
  id: string;
  type: string;
  name: string;
  text: string;
  url: string | null;
  published: string;
  author: { id: string; name: string; handle: string; profileUrl: string | null };
  replies: { id: string; text: string; created_at: string }[];
}

/**
 * Posts from followed remote actors (the fediverse in miniature): Create(Article/Note) kept as plain
 * text in a bounded store, listed for the accounts following their author, answered with a signed
 * Create(Note) inReplyTo through the queue.
 */
export function createTimeline(k: Kernel, deps: { u: Urls; actors: LocalActors; delivery: Delivery }) {
  const { db, rateLimit } = k;
  const { u, actors, delivery } = deps;
  const posts = schema.apRemotePosts;

  /** The note a local account sent, as the document its URL serves. */
  function noteDocument(note: typeof schema.apNotes.$inferSelect, to: string | null): Record<string, unknown> {
    const html = `<p>${escapeHtml(note.text).replace(/\n/g, "<br>")}</p>`;
    return {
      id: u.note(note.id),
      type: "Note",
      attributedTo: u.actor(note.userId),
      inReplyTo: note.inReplyTo,
      content: html,
      mediaType: "text/html",
      published: new Date(note.createdAt).toISOString(),
      to: to ? [to, PUBLIC] : [PUBLIC],
      cc: [u.followers(note.userId)],
    };
  }

  return {
    /**
     * The inbox: a Create of an Article or Note from an actor someone here follows is kept, when it is
     * public or for its author's followers; a direct message (addressed to people only) never is.
     * `audience`: the activity's own `to` and `cc`, read with the object's.
     */
    async receive(
      sender: RemoteActor,
      object: Record<string, unknown>,
      audience: unknown[] = [],
      now = Date.now(),
    ): Promise<string> {
      const id = idOf(object.id);
      const attributed = idOf(object.attributedTo);
      if (!id || (attributed && attributed !== sender.id)) return "ignored";
      const addressed = [object.to, object.cc, ...audience];
      const forFollowers = !!sender.followersUrl && audienceOf(...addressed).includes(sender.followersUrl);
      if (!isPublic(...addressed) && !forFollowers) return "ignored";
      try {
        if (new URL(id).host !== sender.host) return "ignored";
      } catch {
        return "ignored";
      }
      const followed = await db.query.apFollowing.findFirst({
        where: eq(schema.apFollowing.remoteId, sender.id),
        columns: { userId: true },
      });
      if (!followed) return "ignored";
      const text = noteToText(object.content ?? object.summary, REMOTE_POST_MAX_CHARS);
      const name = typeof object.name === "string" ? object.name.slice(0, 300) : "";
      if (!text && !name) return "ignored";
      const published = Math.min(Date.parse(String(object.published ?? "")) || now, now);
      const url = safeLink(firstUrl(object.url));
      await db
        .insert(posts)
        .values({ id, remoteId: sender.id, type: String(object.type), name, text, url, publishedAt: published })
        .onConflictDoNothing();
      // Bounded: only the newest REMOTE_POSTS_PER_ACTOR of this actor stay.
      const keep = db
        .select({ id: posts.id })
        .from(posts)
        .where(eq(posts.remoteId, sender.id))
        .orderBy(desc(posts.publishedAt))
        .limit(REMOTE_POSTS_PER_ACTOR);
      await db.delete(posts).where(and(eq(posts.remoteId, sender.id), notInArray(posts.id, keep)));
      return "stored";
    },

    /** The inbox: an Update of a kept post (only its author's). */
    async update(sender: RemoteActor, object: Record<string, unknown>): Promise<boolean> {
      const id = idOf(object.id);
      if (!id) return false;
      const text = noteToText(object.content ?? object.summary, REMOTE_POST_MAX_CHARS);
      const name = typeof object.name === "string" ? object.name.slice(0, 300) : "";
      const changed = await db
        .update(posts)
        .set({ text, name })
        .where(and(eq(posts.id, id), eq(posts.remoteId, sender.id)))
        .returning({ id: posts.id });
      return changed.length > 0;
    },

    /** The inbox: a Delete of a kept post (only its author's). */
    async remove(sender: RemoteActor, objectId: string): Promise<boolean> {
      const gone = await db
        .delete(posts)
        .where(and(eq(posts.id, objectId), eq(posts.remoteId, sender.id)))
        .returning({ id: posts.id });
      return gone.length > 0;
    },

    /** /fediverse: the posts of the accounts this person follows, newest first, with their own replies. */
    async list(actor: Actor | null, input: { page?: unknown } = {}): Promise<Page<TimelinePost>> {
      const user = requireUser(actor);
      const paging = parsePaging({ page: input.page }, TIMELINE_PAGE);
      const mine = and(eq(schema.apFollowing.userId, user.id), sql`${posts.remoteId} = ${schema.apFollowing.remoteId}`);
      const [rows, totals] = await db.batch([
        db
          .select({
            post: posts,
            // Named apart: a batch maps columns by name (the post's id and name are not the author's).
            author: {
              authorId: sql<string>`${schema.apRemoteActors.id}`.as("author_id"),
              authorName: sql<string>`${schema.apRemoteActors.name}`.as("author_name"),
              handle: schema.apRemoteActors.handle,
              host: schema.apRemoteActors.host,
              profileUrl: schema.apRemoteActors.profileUrl,
              inbox: schema.apRemoteActors.inbox,
            },
          })
          .from(posts)
          .innerJoin(schema.apFollowing, mine)
          .innerJoin(schema.apRemoteActors, eq(schema.apRemoteActors.id, posts.remoteId))
          .orderBy(desc(posts.publishedAt), desc(posts.id))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ total: count() }).from(posts).innerJoin(schema.apFollowing, mine),
      ]);
      const ids = rows.map((r) => r.post.id);
      const sent = ids.length
        ? await db
            .select()
            .from(schema.apNotes)
            .where(and(eq(schema.apNotes.userId, user.id), inArray(schema.apNotes.inReplyTo, ids)))
            .orderBy(schema.apNotes.createdAt)
            .limit(200)
        : [];
      return toPage(
        rows.map(({ post, author }) => ({
          id: post.id,
          type: post.type,
          name: post.name,
          text: post.text,
          url: post.url,
          published: new Date(post.publishedAt).toISOString(),
          author: {
            id: author.authorId,
            name: author.authorName || author.handle,
            handle: author.handle ? `@${author.handle}@${author.host}` : author.authorId,
            profileUrl: safeLink(author.profileUrl),
          },
          replies: sent
            .filter((note) => note.inReplyTo === post.id)
            .map((note) => ({ id: note.id, text: note.text, created_at: new Date(note.createdAt).toISOString() })),
        })),
        totals[0]?.total ?? 0,
        paging,
      );
    },

    /** Replies to a post this person sees: a Create(Note) inReplyTo, signed by their actor, queued. */
    async reply(actor: Actor | null, input: unknown): Promise<{ insertedId: string; id: string }> {
      const user = requireUser(actor);
      const { in_reply_to: inReplyTo, body } = parse(replyInput, input);
      await requireVerifiedAddress(db, user.id);
      const [row] = await db
        .select({
          post: posts,
          // Named apart: a batch maps columns by name (the post's id and name are not the author's).
          author: {
            authorId: schema.apRemoteActors.id,
            authorName: schema.apRemoteActors.name,
            handle: schema.apRemoteActors.handle,
            host: schema.apRemoteActors.host,
            profileUrl: schema.apRemoteActors.profileUrl,
            inbox: schema.apRemoteActors.inbox,
          },
        })
        .from(posts)
        .innerJoin(
          schema.apFollowing,
          and(eq(schema.apFollowing.userId, user.id), eq(schema.apFollowing.remoteId, posts.remoteId)),
        )
        .innerJoin(schema.apRemoteActors, eq(schema.apRemoteActors.id, posts.remoteId))
        .where(eq(posts.id, inReplyTo))
        .limit(1);
      if (!row) throw new NotFound("That post is not in your fediverse timeline.", "post-not-found");
      await rateLimit.hit(`ap-reply:${user.id}`, REPLIES_PER_HOUR, 3600);
      const local = await actors.writer(user.id);
      if (!local) throw new Forbidden("Your account cannot reply.");
      const note = { id: newId(), userId: user.id, inReplyTo, text: body, createdAt: Date.now() };
      await db.insert(schema.apNotes).values(note);
      const object = noteDocument(note, row.author.authorId);
      const activity = {
        "@context": AS_CONTEXT,
        id: `${u.note(note.id)}/activity`,
        type: "Create",
        actor: u.actor(user.id),
        published: object.published,
        to: object.to,
        cc: object.cc,
        object,
      };
      await delivery.enqueue([
        {
          kind: "deliver",
          activity: JSON.stringify(activity),
          signer: local.id,
          keyId: u.key(local.id),
          inbox: row.author.inbox,
          firstAt: Date.now(),
        },
      ]);
      return { insertedId: note.id, id: u.note(note.id) };
    },

    /** GET /ap/notes/{id}: a reply sent from here, while its account exists. */
    async note(id: string): Promise<Record<string, unknown>> {
      if (!isIdShaped(id)) throw new NotFound("Note not found.");
      const note = await db.query.apNotes.findFirst({ where: eq(schema.apNotes.id, id) });
      if (!note) throw new NotFound("Note not found.");
      const post = await db.query.apRemotePosts.findFirst({
        where: eq(posts.id, note.inReplyTo),
        columns: { remoteId: true },
      });
      return { "@context": AS_CONTEXT, ...noteDocument(note, post?.remoteId ?? null) };
    },
  };
}

export type Timeline = ReturnType<typeof createTimeline>;
