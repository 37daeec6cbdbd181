import { and, count, desc, eq, or } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { requireVerifiedAddress, type LocalActors } from "#worker/services/federation/actors.ts";
import type { Delivery } from "#worker/services/federation/delivery.ts";
import { isBlocked } from "#worker/services/federation/blocks.ts";
import type { RemoteActor, RemoteActors } from "#worker/services/federation/remote.ts";
import { AS_CONTEXT, idOf, SITE_ACTOR, type Urls } from "#worker/services/federation/vocab.ts";
import { safeLink } from "#worker/security/safe-link.ts";
import { Conflict, Forbidden, ValidationError } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { parsePaging, toPage } from "#worker/services/shared/pagination.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Remote accounts one local account may follow. */
export const FOLLOWING_MAX = 500;
/** Followed accounts listed per page. */
export const FOLLOWING_PAGE = 20;

export const FOLLOW_TARGET_TEXT =
  "Enter an account's URL (https://server/users/name) or its handle (@name@server.example).";
export const FOLLOW_UNREACHABLE_TEXT = "That account could not be found. Check the URL or handle and try again.";
export const targetInput = z.object({
  target: z.string({ error: FOLLOW_TARGET_TEXT }).trim().min(3, FOLLOW_TARGET_TEXT).max(500, FOLLOW_TARGET_TEXT),
});

export interface FollowedAccount {
  id: string;
  name: string;
  handle: string;
  profileUrl: string | null;
  accepted: boolean;
}

/**
 * Local accounts following remote actors: a Follow sent from the account's own actor (signed, through
 * the queue), the Accept that confirms it, Undo(Follow) to stop. By actor URL, or by handle where the
 * remote server's WebFinger answers (https; plain http only in a test configuration).
 */
export function createFollowing(
  k: Kernel,
  deps: { u: Urls; actors: LocalActors; remote: RemoteActors; delivery: Delivery },
) {
  const { db } = k;
  const { u, actors, remote, delivery } = deps;
  const allowPrivate = k.config.federation.allowPrivate;

  /** `@name@host` (or `name@host`, `acct:name@host`) to an actor URL through the host's WebFinger. */
  async function resolveHandle(text: string): Promise<string | null> {
    const match = text.match(/^(?:acct:)?@?([^@\s/]+)@([a-z0-9.-]+(?::\d{1,5})?)$/i);
    if (!match) return null;
    const [, name, host] = match;
    for (const scheme of allowPrivate ? ["https", "http"] : ["https"]) {
      const jrd = await remote.fetchWebFinger(
        `${scheme}://${host}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${name}@${host}`)}`,
      );
      const links = Array.isArray(jrd?.links) ? (jrd.links as { rel?: unknown; type?: unknown; href?: unknown }[]) : [];
      const self = links.find(
        (l) => l.rel === "self" && typeof l.href === "string" && String(l.type ?? "").includes("json"),
      );
      if (self) return self.href as string;
    }
    return null;
  }

  async function send(localId: string, inbox: string, activity: Record<string, unknown>) {
    await delivery.enqueue([
      {
        kind: "deliver",
        activity: JSON.stringify(activity),
        signer: localId,
        keyId: u.key(localId),
        inbox,
        firstAt: Date.now(),
      },
    ]);
  }

  function followActivity(localId: string, remoteId: string, followId: string) {
    return { "@context": AS_CONTEXT, id: followId, type: "Follow", actor: u.actor(localId), object: remoteId };
  }

  return {
    resolveHandle,

    /** Follows a remote account by its URL or handle. Answers the account (not yet accepted). */
    async follow(actor: Actor | null, input: unknown): Promise<FollowedAccount> {
      const user = requireUser(actor);
      const { target } = parse(targetInput, input);
      await requireVerifiedAddress(db, user.id);
      const url = /^https?:\/\//i.test(target) ? target : await resolveHandle(target);
      if (!url) throw new ValidationError({ target: FOLLOW_UNREACHABLE_TEXT }, FOLLOW_UNREACHABLE_TEXT);
      if (url.startsWith(`${u.origin}/`)) {
        const text = "That account is on this site: follow the writer from their page.";
        throw new ValidationError({ target: text }, text);
      }
      if (await isBlocked(db, url)) throw new Forbidden("That account or its server is blocked here.", "blocked");
      const account = await remote.get(url.split("#")[0]!);
      if (!account) throw new ValidationError({ target: FOLLOW_UNREACHABLE_TEXT }, FOLLOW_UNREACHABLE_TEXT);
      const [{ total } = { total: 0 }] = await db
        .select({ total: count() })
        .from(schema.apFollowing)
        .where(eq(schema.apFollowing.userId, user.id));
      if (total >= FOLLOWING_MAX) {
        throw new Conflict(`You follow ${FOLLOWING_MAX} fediverse accounts, the most there can be.`, "too-many");
      }
      const local = await actors.writer(user.id);
      if (!local) throw new Forbidden("Your account cannot follow anyone.");
      const followId = `${u.actor(local.id)}#follows/${newId()}`;
      await db
        .insert(schema.apFollowing)
        .values({ userId: user.id, remoteId: account.id, followId })
        .onConflictDoUpdate({
          target: [schema.apFollowing.userId, schema.apFollowing.remoteId],
          set: { followId, accepted: false },
        });
      await send(local.id, account.inbox, followActivity(local.id, account.id, followId));
      return toFollowed(account, false);
    },

    /** Stops following (Undo(Follow) goes to the account). */
    async unfollow(actor: Actor | null, remoteId: string): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      const gone = await db
        .delete(schema.apFollowing)
        .where(and(eq(schema.apFollowing.userId, user.id), eq(schema.apFollowing.remoteId, remoteId)))
        .returning({ followId: schema.apFollowing.followId });
      const account = gone[0] ? await remote.get(remoteId) : null;
      if (gone[0] && account) {
        await send(user.id, account.inbox, {
          "@context": AS_CONTEXT,
          id: `${gone[0].followId}/undo`,
          type: "Undo",
          actor: u.actor(user.id),
          object: followActivity(user.id, remoteId, gone[0].followId),
        });
      }
      return { deletedCount: gone.length };
    },

    /** The remote accounts a local account follows, newest first, a page at a time. */
    async list(actor: Actor | null, input: { page?: unknown } = {}) {
      const user = requireUser(actor);
      const paging = parsePaging({ page: input.page }, FOLLOWING_PAGE);
      const mine = eq(schema.apFollowing.userId, user.id);
      const [rows, totals] = await db.batch([
        db
          .select({ account: schema.apRemoteActors, accepted: schema.apFollowing.accepted })
          .from(schema.apFollowing)
          .innerJoin(schema.apRemoteActors, eq(schema.apRemoteActors.id, schema.apFollowing.remoteId))
          .where(mine)
          .orderBy(desc(schema.apFollowing.createdAt))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ total: count() }).from(schema.apFollowing).where(mine),
      ]);
      return toPage(
        rows.map((r) => toFollowed(r.account, r.accepted)),
        totals[0]?.total ?? 0,
        paging,
      );
    },

    /**
     * The inbox: a followed account moved (its Move verified: the new account names the old as itself).
     * Each account here that followed the old one sends Undo(Follow) to it and a Follow to the new one.
     */
    async moved(old: RemoteActor, moved: RemoteActor): Promise<number> {
      const rows = await db.select().from(schema.apFollowing).where(eq(schema.apFollowing.remoteId, old.id));
      for (const row of rows) {
        const local = await actors.byId(row.userId);
        if (!local || local.deletedAt) continue;
        const followId = `${u.actor(local.id)}#follows/${newId()}`;
        const [added] = await db
          .insert(schema.apFollowing)
          .values({ userId: row.userId, remoteId: moved.id, followId })
          .onConflictDoNothing()
          .returning({ followId: schema.apFollowing.followId });
        await db
          .delete(schema.apFollowing)
          .where(and(eq(schema.apFollowing.userId, row.userId), eq(schema.apFollowing.remoteId, old.id)));
        await send(local.id, old.inbox, {
          "@context": AS_CONTEXT,
          id: `${row.followId}/undo`,
          type: "Undo",
          actor: u.actor(local.id),
          object: followActivity(local.id, old.id, row.followId),
        });
        // Already following the new account: nothing more to ask.
        if (added) await send(local.id, moved.inbox, followActivity(local.id, moved.id, followId));
      }
      return rows.length;
    },

    /** The inbox: an Accept (or Reject) of one of our Follows, by the account followed. */
    async answered(sender: RemoteActor, object: unknown, accepted: boolean): Promise<string> {
      const followId = idOf(object);
      const inner = object && typeof object === "object" ? (object as { actor?: unknown }).actor : undefined;
      const localActor = idOf(inner);
      const local = u.actorIdOf(localActor);
      const byActor = local && local !== SITE_ACTOR ? local : null;
      const which = and(
        eq(schema.apFollowing.remoteId, sender.id),
        or(
          followId ? eq(schema.apFollowing.followId, followId) : undefined,
          byActor ? eq(schema.apFollowing.userId, byActor) : undefined,
        ),
      );
      if (!followId && !byActor) return "ignored";
      const changed = accepted
        ? await db.update(schema.apFollowing).set({ accepted: true }).where(which).returning()
        : await db.delete(schema.apFollowing).where(which).returning();
      return changed.length ? (accepted ? "accepted" : "rejected") : "ignored";
    },
  };
}

function toFollowed(account: RemoteActor, accepted: boolean): FollowedAccount {
  let host = account.host;
  try {
    host = new URL(account.id).host;
  } catch {
    // stored ids are URLs
  }
  return {
    id: account.id,
    name: account.name || account.handle,
    handle: account.handle ? `@${account.handle}@${host}` : account.id,
    // Stored through safeLink already; checked again on the way out (a row from before that rule).
    profileUrl: safeLink(account.profileUrl),
    accepted,
  };
}

export type Following = ReturnType<typeof createFollowing>;
