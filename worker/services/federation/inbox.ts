import { and, eq } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Purge } from "#worker/cache/purge.ts";
import type { LocalActors } from "#worker/services/federation/actors.ts";
import { isBlocked } from "#worker/services/federation/blocks.ts";
import type { Delivery } from "#worker/services/federation/delivery.ts";
import type { Following } from "#worker/services/federation/following.ts";
import { importPublicKey } from "#worker/services/federation/keys.ts";
import { noteToText, type RemoteComments } from "#worker/services/federation/replies.ts";
import type { RemoteActor, RemoteActors } from "#worker/services/federation/remote.ts";
import { parseSignature, verifyRequest } from "#worker/services/federation/signatures.ts";
import type { Timeline } from "#worker/services/federation/timeline.ts";
import { AS_CONTEXT, idOf, SITE_ACTOR, type Urls } from "#worker/services/federation/vocab.ts";
import type { RateLimitService } from "#worker/services/rate-limit.ts";
import { DomainError, Forbidden, tooLarge, Unauthorized } from "#worker/services/shared/errors.ts";

/** The largest activity an inbox reads. */
export const INBOX_MAX_BYTES = 256 * 1024;
/** Deliveries one remote server may make per window... */
export const INBOX_PER_SERVER = 300;
/** ...of this many seconds. */
export const INBOX_WINDOW_SECONDS = 60;

export const SIGNATURE_REFUSED = "The request's HTTP signature is missing or does not verify.";

type Activity = Record<string, unknown> & { id?: unknown; type?: unknown; actor?: unknown; object?: unknown };

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
}) {
  const { db, u, actors, remote, delivery, replies, rateLimit, purge, following, timeline } = deps;

  /** The local actor a URL names (ours), or null. */
  function localIdOf(url: string | null): string | null {
    if (!url) return null;
    if (url === u.actor(SITE_ACTOR)) return SITE_ACTOR;
    const prefix = `${u.origin}/ap/users/`;
    return url.startsWith(prefix) && /^[0-9a-z]{8,40}$/.test(url.slice(prefix.length))
      ? url.slice(prefix.length)
      : null;
  }

  /** The post a URL names (its object id or its page), or null. */
  function blogIdOf(url: string | null): string | null {
    if (!url) return null;
    const match = url.match(/^(.*)\/(?:ap\/posts|blogs)\/([0-9a-z]{8,40})(?:\/[a-z0-9-]{1,100})?$/);
    return match && match[1] === u.origin ? match[2]! : null;
  }

  /** Checks the signature: answers the verified sender, or throws Unauthorized (nothing has changed). */
  async function authenticate(request: Request, body: string): Promise<RemoteActor> {
    const signature = parseSignature(request.headers.get("Signature"));
    if (!signature) throw new Unauthorized(SIGNATURE_REFUSED, "signature-required");
    let host: string;
    try {
      host = new URL(signature.keyId).host.toLowerCase();
    } catch {
      throw new Unauthorized(SIGNATURE_REFUSED, "signature-invalid");
    }
    // Per remote server, before any fetch or crypto is spent on it.
    await rateLimit.hit(`ap-inbox:${host}`, INBOX_PER_SERVER, INBOX_WINDOW_SECONDS);
    for (const fresh of [false, true]) {
      const sender = await remote.byKeyId(signature.keyId, fresh);
      const key = sender ? await importPublicKey(sender.publicKeyPem) : null;
      if (!sender || !key) continue;
      const failure = await verifyRequest(request, body, signature, key);
      if (!failure) return sender;
      // Only a key that may have been rotated is worth fetching again.
      if (failure !== "signature") break;
    }
    throw new Unauthorized(SIGNATURE_REFUSED, "signature-invalid");
  }

  async function follow(sender: RemoteActor, activity: Activity) {
    const localId = localIdOf(idOf(activity.object));
    const local = localId ? await actors.byId(localId) : null;
    const followId = idOf(activity.id);
    if (!local || local.deletedAt || !followId) return "ignored";
    await db
      .insert(schema.apFollowers)
      .values({ localId: local.id, remoteId: sender.id, inbox: sender.sharedInbox ?? sender.inbox, followId })
      .onConflictDoUpdate({
        target: [schema.apFollowers.localId, schema.apFollowers.remoteId],
        set: { inbox: sender.sharedInbox ?? sender.inbox, followId },
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
  }

  async function undo(sender: RemoteActor, activity: Activity) {
    const inner = activity.object as Activity | string | undefined;
    const innerId = idOf(inner);
    const type = typeof inner === "object" && inner ? inner.type : undefined;
    if (type === "Follow" || (typeof inner === "string" && inner)) {
      const localId = typeof inner === "object" && inner ? localIdOf(idOf(inner.object)) : null;
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
  }

  async function react(sender: RemoteActor, activity: Activity, kind: "like" | "announce") {
    const blogId = blogIdOf(idOf(activity.object));
    const activityId = idOf(activity.id);
    if (!blogId || !activityId) return "ignored";
    const blog = await db.query.blogs.findFirst({ where: eq(schema.blogs.id, blogId), columns: { id: true } });
    if (
      !blog ||
      !(await db.query.apPosts.findFirst({
        where: and(eq(schema.apPosts.blogId, blogId), eq(schema.apPosts.deleted, false)),
      }))
    ) {
      return "ignored";
    }
    await db.insert(schema.apReactions).values({ activityId, blogId, kind, remoteId: sender.id }).onConflictDoNothing();
    await purge({ kind: "blog.like", blogId });
    return kind === "like" ? "liked" : "announced";
  }

  async function create(sender: RemoteActor, activity: Activity) {
    const note = activity.object as Record<string, unknown> | undefined;
    if (!note || typeof note !== "object") return "ignored";
    const blogId = blogIdOf(idOf(note.inReplyTo));
    // Not a reply to one of our posts: a post of someone an account here follows (or nothing).
    if (!blogId) return note.type === "Note" || note.type === "Article" ? timeline.receive(sender, note) : "ignored";
    if (note.type !== "Note") return "ignored";
    const noteId = idOf(note.id);
    const attributed = idOf(note.attributedTo);
    if (!noteId || !blogId || (attributed && attributed !== sender.id)) return "ignored";
    if (new URL(noteId).host !== sender.host) return "ignored";
    const text = noteToText(note.content);
    if (!text) return "ignored";
    return (await replies.add(sender, blogId, noteId, text)) ? "commented" : "ignored";
  }

  async function remove(sender: RemoteActor, activity: Activity) {
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
  }

  return {
    /**
     * One delivery to an inbox: the signature is checked before anything is read or written (401 when
     * missing or forged), then the sender's blocks, then the activity. Answers what was done.
     */
    async receive(request: Request): Promise<string> {
      const declared = Number(request.headers.get("Content-Length") ?? "0");
      if (declared > INBOX_MAX_BYTES) throw tooLarge("That activity is too large.");
      const body = await request.text();
      if (body.length > INBOX_MAX_BYTES) throw tooLarge("That activity is too large.");
      const sender = await authenticate(request, body);
      let activity: Activity;
      try {
        activity = JSON.parse(body) as Activity;
      } catch {
        throw new DomainError("invalid-activity", "The body is not JSON.");
      }
      if (!activity || typeof activity !== "object" || typeof activity.type !== "string") {
        throw new DomainError("invalid-activity", "The body is not an activity.");
      }
      // The signer speaks only for itself.
      if (idOf(activity.actor) !== sender.id) throw new Unauthorized(SIGNATURE_REFUSED, "actor-mismatch");
      if (await isBlocked(db, sender.id)) throw new Forbidden("This account or its server is blocked here.", "blocked");
      switch (activity.type) {
        case "Follow":
          return follow(sender, activity);
        case "Undo":
          return undo(sender, activity);
        case "Like":
          return react(sender, activity, "like");
        case "Announce":
          return react(sender, activity, "announce");
        case "Create":
          return create(sender, activity);
        case "Delete":
          return remove(sender, activity);
        case "Update":
          // A profile change: fetch the actor again next time it is needed.
          if (idOf(activity.object) === sender.id) await remote.get(sender.id, true);
          else if (activity.object && typeof activity.object === "object") {
            await timeline.update(sender, activity.object as Record<string, unknown>);
          }
          return "updated";
        case "Accept":
          return following.answered(sender, activity.object, true);
        case "Reject":
          return following.answered(sender, activity.object, false);
        default:
          return "ignored";
      }
    },
  };
}

export type Inbox = ReturnType<typeof createInbox>;
