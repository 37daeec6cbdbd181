import { configOf } from "#worker/config.ts";
import { and, count, desc, eq } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { logError } from "#worker/log.ts";
import { createLocalActors, type LocalActor } from "#worker/services/federation/actors.ts";
import { createBlocks, isBlocked } from "#worker/services/federation/blocks.ts";
import { clientAddressKey } from "#worker/services/client-address.ts";
import { createDelivery, type FederationJob } from "#worker/services/federation/delivery.ts";
import { collection, collectionPage, COLLECTION_PAGE } from "#worker/services/federation/collections.ts";
import { createFollowing } from "#worker/services/federation/following.ts";
import { nodeinfoDocument } from "#worker/services/federation/discovery.ts";
import { createInbox } from "#worker/services/federation/inbox.ts";
import { createPublishing, toArticle } from "#worker/services/federation/publishing.ts";
import { createRemoteActors, fetchAvatar } from "#worker/services/federation/remote.ts";
import { createRemoteComments } from "#worker/services/federation/replies.ts";
import { createStatus } from "#worker/services/federation/status.ts";
import { createTimeline } from "#worker/services/federation/timeline.ts";
import { AS_CONTEXT, SITE_ACTOR, urls } from "#worker/services/federation/vocab.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { Gone, NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { parsePaging } from "#worker/services/shared/pagination.ts";
import { visibleBlogsWhere } from "#worker/services/blogs/visible.ts";

export { COLLECTION_PAGE };
/** Remote avatars one client may have fetched per minute (a page shows a few dozen at most). */
export const AVATARS_PER_CLIENT = 300;

/** The site's origin: SITE_URL when configured (production), else the request's. */
export function federationOrigin(env: Env, requestOrigin: string | null): string {
  return configOf(env).siteUrl ?? requestOrigin ?? "http://localhost:8787";
}

/**
 * The fediverse (ActivityPub). Its parts share the kernel and this site's origin: SITE_URL, else the
 * request's (`kernel.origin`). A reply from the fediverse emits `comment.created` or `reply.private`
 * itself (replies.ts); a post's write reaches `publishing.sync` through `post.changed` (events.ts).
 */
export function createFederationService(k: Kernel) {
  const { db, env, rateLimit, purge } = k;
  const origin = federationOrigin(env, k.origin);
  const u = urls(origin);
  const host = new URL(origin).host;
  const config = k.config;
  const { siteHandle, allowPrivate } = config.federation;
  const siteName = config.siteName;
  const actors = createLocalActors(k);
  const remote = createRemoteActors(k, { actors, u });
  const delivery = createDelivery(k);
  const replies = createRemoteComments(k);
  const publishing = createPublishing(k, { delivery, u });
  const following = createFollowing(k, { u, actors, remote, delivery });
  const timeline = createTimeline(k, { u, actors, delivery });
  const inbox = createInbox(k, { u, actors, remote, delivery, replies, following, timeline });

  /** A local actor by the id in a URL (a writer's user id, or "site"); Gone (410) if deleted, else NotFound. */
  async function local(id: string): Promise<LocalActor> {
    const actor = id === SITE_ACTOR ? await actors.site() : await actors.writer(id);
    if (actor) return actor;
    if (isIdShaped(id) && (await actors.byId(id))?.deletedAt) throw new Gone("This account was deleted.");
    throw new NotFound("Actor not found.");
  }

  return {
    origin,
    urls: u,
    host,
    siteHandle,
    actors,
    remote,
    inbox,
    publishing,
    /** Remote accounts a local account follows, and what they post (the fediverse in miniature). */
    remoteFollows: following,
    timeline,
    /** Account deletion (worker/services/accounts/erase.ts eraseAccount): the actor signs its own Delete. */
    accountDeletion: {
      async retire(userId: string): Promise<boolean> {
        const kept = await db
          .update(schema.apActors)
          .set({ userId: null, deletedAt: Date.now() })
          .where(eq(schema.apActors.userId, userId))
          .returning({ id: schema.apActors.id });
        return kept.length > 0;
      },
      async restore(userId: string): Promise<void> {
        await db.update(schema.apActors).set({ userId, deletedAt: null }).where(eq(schema.apActors.id, userId));
      },
      async announce(userId: string): Promise<void> {
        await publishing.retireAuthor(userId).catch((err) => logError("federation: account Delete failed", err));
      },
    },
    /** A queue job: an activity's handler (read as the site it was sent to, when that is not this origin), a delivery. */
    runJob(job: FederationJob): Promise<string> {
      if (job.kind !== "inbox") return delivery.run(job);
      const { origin: receivedAt, ...rest } = job;
      if (receivedAt && receivedAt !== origin)
        return createFederationService({ ...k, origin: receivedAt }).runJob(rest);
      return inbox.handle(job);
    },
    /** The hourly sweep: received activities older than the inbox keeps them. */
    sweep: (now: number) => inbox.sweep(now),

    /** /settings: a writer's new handle; their page (which shows it) is purged. */
    async setHandle(userId: string, input: unknown): Promise<{ modifiedCount: number }> {
      const result = await actors.setHandle(userId, input);
      if (result.modifiedCount) await purge({ kind: "profile.changed", userId });
      return result;
    },

    /** `@handle@host` of a writer (made on first need), or of the site. */
    async handleOf(userId: string | null): Promise<string | null> {
      const actor = userId ? await actors.writer(userId) : await actors.site();
      return actor ? `@${actor.handle}@${host}` : null;
    },

    /** WebFinger (RFC 7033): `acct:handle@host`, or one of our actor or profile URLs. Null when not ours. */
    async webfinger(resource: string): Promise<Record<string, unknown> | null> {
      let actor: LocalActor | null = null;
      const acct = resource.match(/^(?:acct:)?@?([^@\s]+)@([^@\s]+)$/i);
      if (acct) {
        if (acct[2]!.toLowerCase() !== host.toLowerCase()) return null;
        actor = await actors.byHandle(acct[1]!);
      } else if (
        resource === u.actor(SITE_ACTOR) ||
        resource === u.profile(SITE_ACTOR) ||
        resource === origin ||
        resource === `${origin}/`
      ) {
        actor = await actors.site();
      } else {
        const writerId = u.writerIdOf(resource);
        if (writerId) actor = await actors.writer(writerId);
      }
      if (!actor) return null;
      return {
        subject: `acct:${actor.handle}@${host}`,
        aliases: [u.actor(actor.id), u.profile(actor.id)],
        links: [
          { rel: "self", type: "application/activity+json", href: u.actor(actor.id) },
          { rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: u.profile(actor.id) },
        ],
      };
    },

    async actorDocument(id: string): Promise<Record<string, unknown>> {
      return actors.document(await local(id), u, siteName);
    },

    /** A post as an Article, only while it is visible (drafts and scheduled posts are never served). */
    async article(blogId: string): Promise<Record<string, unknown>> {
      const [row] = await db
        .select()
        .from(schema.blogs)
        .where(visibleBlogsWhere(eq(schema.blogs.id, blogId)))
        .limit(1);
      if (!row) throw new NotFound("Blog not found.");
      return toArticle(row, u);
    },

    /** An outbox: the Create activities sent, newest first; without `page` the collection's summary. */
    async outbox(id: string, input: { page?: unknown }): Promise<Record<string, unknown>> {
      const actor = await local(id);
      const where = and(
        eq(schema.apPosts.deleted, false),
        actor.id === SITE_ACTOR ? undefined : eq(schema.apPosts.authorId, actor.id),
      );
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(schema.apPosts).where(where);
      const base = u.outbox(actor.id);
      if (input.page === undefined) return collection(base, total);
      const paging = parsePaging({ page: input.page, limit: COLLECTION_PAGE }, COLLECTION_PAGE);
      const rows = await db
        .select({ activity: schema.apPosts.activity })
        .from(schema.apPosts)
        .where(where)
        .orderBy(desc(schema.apPosts.publishedAt))
        .limit(paging.limit)
        .offset(paging.offset);
      const items = rows.map((row) => {
        const { "@context": _context, ...activity } = JSON.parse(row.activity) as Record<string, unknown>;
        return activity;
      });
      return collectionPage(base, paging.page, total, items);
    },

    /** Followers: the remote accounts following this actor, a page at a time. */
    async followers(id: string, input: { page?: unknown }): Promise<Record<string, unknown>> {
      const actor = await local(id);
      const where = eq(schema.apFollowers.localId, actor.id);
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(schema.apFollowers).where(where);
      const base = u.followers(actor.id);
      if (input.page === undefined) return collection(base, total);
      const paging = parsePaging({ page: input.page, limit: COLLECTION_PAGE }, COLLECTION_PAGE);
      const rows = await db
        .select({ remoteId: schema.apFollowers.remoteId })
        .from(schema.apFollowers)
        .where(where)
        .orderBy(desc(schema.apFollowers.createdAt))
        .limit(paging.limit)
        .offset(paging.offset);
      return collectionPage(
        base,
        paging.page,
        total,
        rows.map((row) => row.remoteId),
      );
    },

    /** Following: the remote accounts a writer follows here (accepted), the newest COLLECTION_PAGE. */
    async following(id: string): Promise<Record<string, unknown>> {
      const actor = await local(id);
      const where = and(eq(schema.apFollowing.userId, actor.userId ?? ""), eq(schema.apFollowing.accepted, true));
      const [totals, rows] = await db.batch([
        db.select({ total: count() }).from(schema.apFollowing).where(where),
        db
          .select({ remoteId: schema.apFollowing.remoteId })
          .from(schema.apFollowing)
          .where(where)
          .orderBy(desc(schema.apFollowing.createdAt))
          .limit(COLLECTION_PAGE),
      ]);
      return {
        "@context": AS_CONTEXT,
        id: u.following(actor.id),
        type: "OrderedCollection",
        totalItems: totals[0]?.total ?? 0,
        orderedItems: rows.map((row) => row.remoteId),
      };
    },

    /** NodeInfo 2.1 (https://nodeinfo.diaspora.software/schema.html). */
    async nodeinfo(version: string): Promise<Record<string, unknown>> {
      return nodeinfoDocument(await actors.usage(), { version, origin, siteName });
    },

    /**
     * The avatar of a remote account we know (never an arbitrary URL: this is no open proxy), never of
     * a blocked one; each uncached ask is an outbound fetch, so a client has AVATARS_PER_CLIENT a minute.
     */
    async avatar(actorId: string, clientAddress: string | null): Promise<{ bytes: Uint8Array; type: string }> {
      await rateLimit.hit(`ap-avatar:${clientAddressKey(clientAddress)}`, AVATARS_PER_CLIENT, 60);
      const known = await db.query.apRemoteActors.findFirst({
        where: eq(schema.apRemoteActors.id, actorId),
        columns: { iconUrl: true },
      });
      const refused = !known?.iconUrl || (await isBlocked(db, actorId)) || (await isBlocked(db, known.iconUrl));
      const image = refused ? null : await fetchAvatar(known.iconUrl!, allowPrivate);
      if (!image) throw new NotFound("No such avatar.");
      return image;
    },

    /** Likes and boosts from the fediverse of a post. */
    async reactions(blogId: string): Promise<{ likes: number; boosts: number }> {
      const rows = await db
        .select({ kind: schema.apReactions.kind, n: count() })
        .from(schema.apReactions)
        .where(eq(schema.apReactions.blogId, blogId))
        .groupBy(schema.apReactions.kind);
      return {
        likes: rows.find((r) => r.kind === "like")?.n ?? 0,
        boosts: rows.find((r) => r.kind === "announce")?.n ?? 0,
      };
    },

    ...createStatus(k, { actors, host }),
    ...createBlocks(k, { replies, following }),
  };
}

export type FederationService = ReturnType<typeof createFederationService>;
