import { and, eq } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import {
  audienceOf,
  isObjectUrl,
  isPublic,
  noteSchema,
  type ActivityOf,
  type ActivityType,
  type NoteObject,
} from "#worker/services/federation/activities.ts";
import type { LocalActors } from "#worker/services/federation/actors.ts";
import { isBlocked } from "#worker/services/federation/blocks.ts";
import type { Delivery } from "#worker/services/federation/delivery.ts";
import type { Following } from "#worker/services/federation/following.ts";
import { noteToText, type RemoteComments } from "#worker/services/federation/replies.ts";
import type { RemoteActor, RemoteActors } from "#worker/services/federation/remote.ts";
import type { Timeline } from "#worker/services/federation/timeline.ts";
import { AS_CONTEXT, idOf, type Urls } from "#worker/services/federation/vocab.ts";
import { DomainError } from "#worker/services/shared/errors.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** What a content warning says when a note is marked sensitive without naming why. */
export const SENSITIVE_TEXT = "Sensitive content";

export type Handlers = { [T in ActivityType]: (author: RemoteActor, activity: ActivityOf<T>) => Promise<string> };

/** The federation's parts an activity's handler calls (the kernel brings the database, purge and limits). */
export interface HandlerDeps {
  u: Urls;
  actors: LocalActors;
  remote: RemoteActors;
  delivery: Delivery;
  replies: RemoteComments;
  following: Following;
  timeline: Timeline;
}

/**
 * What each incoming activity does, by type: run by the federation queue's consumer on an activity the
 * inbox verified and recorded (worker/services/federation/inbox.ts), with its author (the signer, or the
 * author whose proof verified). Each is safe to run again (upserts, deletes, and ids checked).
 */
export function createHandlers(k: Kernel, deps: HandlerDeps): Handlers {
  const { db, purge } = k;
  const { u, actors, remote, delivery, replies, following, timeline } = deps;
  const allowPrivate = k.config.federation.allowPrivate;

  /** A note given by reference (a URL): fetched from its author's own server, bounded, or null. */
  async function dereference(url: string, author: RemoteActor): Promise<NoteObject | null> {
    if (!isObjectUrl(url, allowPrivate)) throw new DomainError("invalid-activity", "The object must be an https URL.");
    if (new URL(url).host !== author.host) return null;
    const parsed = noteSchema.safeParse(await remote.fetchDocument(url));
    return parsed.success && parsed.data.id === url ? parsed.data : null;
  }

  const handlers: Handlers = {
    async Follow(sender, activity) {
      const localId = u.actorIdOf(idOf(activity.object));
      const local = localId ? await actors.byId(localId) : null;
      const followId = activity.id;
      if (!local || local.deletedAt) return "ignored";
      const inbox = sender.sharedInbox ?? sender.inbox;
      await db
        .insert(schema.apFollowers)
        .values({ localId: local.id, remoteId: sender.id, inbox, followId })
        .onConflictDoUpdate({
          target: [schema.apFollowers.localId, schema.apFollowers.remoteId],
          set: { inbox, followId },
        });
      const accept = {
        "@context": AS_CONTEXT,
        id: `${u.actor(local.id)}#accepts/${encodeURIComponent(followId)}`,
        type: "Accept",
        actor: u.actor(local.id),
        object: { id: followId, type: "Follow", actor: sender.id, object: u.actor(local.id) },
      };
      await delivery.enqueue([
        {
          kind: "deliver",
          activity: JSON.stringify(accept),
          signer: local.id,
          keyId: u.key(local.id),
          inbox: sender.inbox,
          firstAt: Date.now(),
        },
      ]);
      return "followed";
    },

    async Undo(sender, activity) {
      const inner = activity.object;
      const innerId = idOf(inner);
      const type = typeof inner === "object" ? inner.type : undefined;
      if (type === "Follow" || typeof inner === "string") {
        const localId = typeof inner === "object" ? u.actorIdOf(idOf(inner.object)) : null;
        await db
          .delete(schema.apFollowers)
          .where(
            and(
              eq(schema.apFollowers.remoteId, sender.id),
              localId ? eq(schema.apFollowers.localId, localId) : eq(schema.apFollowers.followId, innerId ?? ""),
            ),
          );
      }
      if (innerId) {
        const gone = await db
          .delete(schema.apReactions)
          .where(and(eq(schema.apReactions.activityId, innerId), eq(schema.apReactions.remoteId, sender.id)))
          .returning({ blogId: schema.apReactions.blogId });
        for (const row of gone) await purge({ kind: "blog.like", blogId: row.blogId });
      }
      return "undone";
    },

    Like: (sender, activity) => react(sender, activity.id, idOf(activity.object), "like"),
    EmojiReact: (sender, activity) => react(sender, activity.id, idOf(activity.object), "like"),
    Announce: (sender, activity) => react(sender, activity.id, idOf(activity.object), "announce"),

    async Create(sender, activity) {
      const note = typeof activity.object === "string" ? await dereference(activity.object, sender) : activity.object;
      if (!note) return "ignored";
      if (!isObjectUrl(note.id, allowPrivate)) {
        throw new DomainError("invalid-activity", "A note's id must be an https URL.");
      }
      const blogId = u.blogIdOf(idOf(note.inReplyTo));
      // Not a reply to one of our posts: a post of someone an account here follows (or nothing).
      if (!blogId) {
        const kept = note.type === "Note" || note.type === "Article";
        return kept ? timeline.receive(sender, note, [activity.to, activity.cc]) : "ignored";
      }
      if (note.type !== "Note") return "ignored";
      const attributed = idOf(note.attributedTo);
      if ((attributed && attributed !== sender.id) || new URL(note.id).host !== sender.host) return "ignored";
      const text = noteToText(note.content);
      if (!text) return "ignored";
      const warning = noteToText(note.summary ?? "", 500) || (note.sensitive ? SENSITIVE_TEXT : null);
      const reply = { sender, blogId, noteId: note.id, text, contentWarning: warning };
      // Only a reply addressed to the public is a comment; any other reaches the writer alone.
      if (isPublic(activity.to, activity.cc, note.to, note.cc)) {
        return (await replies.add(reply)) ? "commented" : "ignored";
      }
      // It reaches the writer only when they are among its recipients: named, through a collection of
      // theirs, or through the sender's followers when they follow the sender.
      const audience = new Set(audienceOf(activity.to, activity.cc, note.to, note.cc));
      const addressedTo = async (userId: string) =>
        audience.has(u.actor(userId)) ||
        audience.has(u.followers(userId)) ||
        (!!sender.followersUrl &&
          audience.has(sender.followersUrl) &&
          !!(await db.query.apFollowing.findFirst({
            where: and(
              eq(schema.apFollowing.userId, userId),
              eq(schema.apFollowing.remoteId, sender.id),
              eq(schema.apFollowing.accepted, true),
            ),
          })));
      return (await replies.addPrivate(reply, addressedTo)) ? "replied-privately" : "ignored";
    },

    async Delete(sender, activity) {
      const objectId = idOf(activity.object);
      if (!objectId) return "ignored";
      if (objectId === sender.id) {
        // The account itself is gone: it follows no one here any more, and its replies go too.
        await db.delete(schema.apFollowers).where(eq(schema.apFollowers.remoteId, sender.id));
        await replies.removeAllOf(sender.id);
        return "deleted";
      }
      if (await replies.remove(sender.id, objectId)) return "deleted";
      return (await timeline.remove(sender, objectId)) ? "deleted" : "ignored";
    },

    async Update(sender, activity) {
      // A profile change: fetch the actor again now.
      if (idOf(activity.object) === sender.id) await remote.get(sender.id, true);
      else if (typeof activity.object === "object") await timeline.update(sender, activity.object);
      return "updated";
    },

    Accept: (sender, activity) => following.answered(sender, activity.object, true),
    Reject: (sender, activity) => following.answered(sender, activity.object, false),

    /** An account moved: its follows move to the new account, if that one names the old as itself. */
    async Move(sender, activity) {
      const target = idOf(activity.target);
      if (idOf(activity.object) !== sender.id || !target || target === sender.id) return "ignored";
      if (await isBlocked(db, target)) return "ignored";
      const moved = await remote.get(target, true);
      const aliases = moved?.alsoKnownAs ? (JSON.parse(moved.alsoKnownAs) as string[]) : [];
      if (!moved || !aliases.includes(sender.id)) return "ignored";
      const old = await db.select().from(schema.apFollowers).where(eq(schema.apFollowers.remoteId, sender.id));
      for (const row of old) {
        await db.batch([
          db
            .insert(schema.apFollowers)
            .values({
              localId: row.localId,
              remoteId: moved.id,
              inbox: moved.sharedInbox ?? moved.inbox,
              followId: `${row.followId}#moved`,
            })
            .onConflictDoNothing(),
          db
            .delete(schema.apFollowers)
            .where(and(eq(schema.apFollowers.localId, row.localId), eq(schema.apFollowers.remoteId, sender.id))),
        ]);
      }
      // And the accounts here that followed the old one follow the new one (Undo to the old, Follow to the new).
      await following.moved(sender, moved);
      return "moved";
    },
  };

  async function react(sender: RemoteActor, activityId: string, objectId: string | null, kind: "like" | "announce") {
    const blogId = u.blogIdOf(objectId);
    if (!blogId) return "ignored";
    const sent = await db.query.apPosts.findFirst({
      where: and(eq(schema.apPosts.blogId, blogId), eq(schema.apPosts.deleted, false)),
    });
    if (!sent) return "ignored";
    await db.insert(schema.apReactions).values({ activityId, blogId, kind, remoteId: sender.id }).onConflictDoNothing();
    await purge({ kind: "blog.like", blogId });
    return kind === "like" ? "liked" : "announced";
  }

  return handlers;
}
