import { readBytesUpTo } from "#worker/http/bytes.ts";
import { and, eq } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Purge } from "#worker/cache/purge.ts";
import {
  isObjectUrl,
  isPublic,
  noteSchema,
  parseActivity,
  type ActivityOf,
  type ActivityType,
  type NoteObject,
} from "#worker/services/federation/activities.ts";
import type { LocalActors } from "#worker/services/federation/actors.ts";
import { createAuthenticator, SIGNATURE_REFUSED } from "#worker/services/federation/authenticate.ts";
import { isBlocked } from "#worker/services/federation/blocks.ts";
import type { Delivery } from "#worker/services/federation/delivery.ts";
import type { Following } from "#worker/services/federation/following.ts";
import { readProof } from "#worker/services/federation/proofs.ts";
import { noteToText, type RemoteComments } from "#worker/services/federation/replies.ts";
import type { RemoteActor, RemoteActors } from "#worker/services/federation/remote.ts";
import type { Timeline } from "#worker/services/federation/timeline.ts";
import { AS_CONTEXT, idOf, type Urls } from "#worker/services/federation/vocab.ts";
import type { RateLimitService } from "#worker/services/rate-limit.ts";
import { DomainError, Forbidden, tooLarge, Unauthorized } from "#worker/services/shared/errors.ts";

export { INBOX_PER_SERVER, INBOX_WINDOW_SECONDS, SIGNATURE_REFUSED } from "#worker/services/federation/authenticate.ts";

/** The largest activity an inbox reads. */
export const INBOX_MAX_BYTES = 256 * 1024;
/** What a content warning says when a note is marked sensitive without naming why. */
export const SENSITIVE_TEXT = "Sensitive content";

type Handlers = { [T in ActivityType]: (author: RemoteActor, activity: ActivityOf<T>) => Promise<string> };

export function createInbox(deps: {
  db: Db;
  u: Urls;
  actors: LocalActors;
  remote: RemoteActors;
  delivery: Delivery;
  replies: RemoteComments;
  rateLimit: RateLimitService;
  purge: Purge;
  following: Following;
  timeline: Timeline;
  allowPrivate: boolean;
}) {
  const { db, u, actors, remote, delivery, replies, purge, following, timeline, allowPrivate } = deps;
  const authenticate = createAuthenticator(remote, deps.rateLimit);

  /**
   * The author an activity speaks for: its signer, or, for an activity another server forwarded (as
   * Mastodon forwards replies), the author whose object integrity proof (FEP-8b32) verifies.
   */
  async function authorOf(sender: RemoteActor, raw: Record<string, unknown>, actorId: string): Promise<RemoteActor> {
    if (actorId === sender.id) return sender;
    const proof = readProof(raw);
    if (!proof) throw new Unauthorized(SIGNATURE_REFUSED, "actor-mismatch");
    const { known, fetch } = await remote.candidates(proof.verificationMethod);
    for (const candidate of [known, known ? null : await fetch()]) {
      if (!candidate || candidate.id !== actorId || candidate.assertionKeyId !== proof.verificationMethod) continue;
      if (candidate.assertionMultibase && (await proof.verify(candidate.assertionMultibase))) {
        return candidate === known ? candidate : remote.remember(candidate);
      }
    }
    throw new Unauthorized("The activity's proof does not verify as its actor's.", "proof-invalid");
  }

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
      if (!blogId) return note.type === "Note" || note.type === "Article" ? timeline.receive(sender, note) : "ignored";
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
      return (await replies.addPrivate(reply)) ? "replied-privately" : "ignored";
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

  return {
    /**
     * One delivery to an inbox: the signature is checked before anything is read or written (401 when
     * missing or forged), then the blocks, then the activity through its type's handler. Answers what
     * was done.
     */
    async receive(request: Request): Promise<string> {
      const declared = Number(request.headers.get("Content-Length") ?? "0");
      if (declared > INBOX_MAX_BYTES) throw tooLarge("That activity is too large.");
      // Counted as it arrives (a chunked body has no Content-Length): never buffered past the cap.
      const body = new TextDecoder().decode(
        await readBytesUpTo(request.body, INBOX_MAX_BYTES, () => tooLarge("That activity is too large.")),
      );
      const sender = await authenticate(request, body);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new DomainError("invalid-activity", "The body is not JSON.");
      }
      const activity = parseActivity(json);
      if (!activity) return "ignored";
      const author = await authorOf(sender, json as Record<string, unknown>, idOf(activity.actor)!);
      if ((await isBlocked(db, sender.id)) || (await isBlocked(db, author.id))) {
        throw new Forbidden("This account or its server is blocked here.", "blocked");
      }
      const handle = handlers[activity.type] as (author: RemoteActor, activity: unknown) => Promise<string>;
      return handle(author, activity);
    },
  };
}

export type Inbox = ReturnType<typeof createInbox>;
