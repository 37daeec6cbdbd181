import { and, count, desc, eq, gt, isNotNull, isNull, max, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { schema } from "#worker/db.ts";
import { SITE_ACTOR } from "#worker/services/federation/vocab.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";

/** Writers the admin's Fediverse page lists by followers (the most followed first). */
export const STATUS_WRITERS = 20;
/** Failing servers it lists (the longest failing first). */
export const STATUS_FAILING = 20;
/** The window its delivery count covers. */
export const STATUS_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The site's presence on the fediverse as the admin's Fediverse page shows it. */
export interface FederationStatus {
  /** `@handle@host` of the site's own account. */
  siteHandle: string;
  siteFollowers: number;
  /** Remote followers of every local account (the site's and the writers'). */
  totalFollowers: number;
  writers: { userId: string; name: string; handle: string; followers: number }[];
  deliveries: {
    /** Deliveries servers took in the last STATUS_WINDOW_MS (an answered delivery, once per activity and inbox). */
    recent: number;
    /** ISO 8601 of the latest one, or null when none was ever made. */
    lastAt: string | null;
    /** Servers whose deliveries are failing now (retried with backoff, then given up), since when. */
    failing: { host: string; since: string; lastFailureAt: string | null }[];
  };
}

/** One D1 batch: the followers of the site and of each writer, and how deliveries fare. */
export async function federationStatus(
  db: Db,
  site: { handle: string; host: string },
  now = Date.now(),
): Promise<FederationStatus> {
  const f = schema.apFollowers;
  const a = schema.apActors;
  const d = schema.apDeliveries;
  const p = schema.apPeers;
  const followers = count(f.remoteId);
  const [siteRows, totals, writers, recent, failing] = await db.batch([
    db.select({ n: count() }).from(f).where(eq(f.localId, SITE_ACTOR)),
    db.select({ n: count() }).from(f),
    db
      .select({ userId: a.id, handle: a.handle, name: schema.users.name, followers })
      .from(f)
      .innerJoin(a, eq(a.id, f.localId))
      .innerJoin(schema.users, eq(schema.users.id, a.userId))
      .where(isNull(a.deletedAt))
      .groupBy(a.id)
      .orderBy(desc(followers), a.handle)
      .limit(STATUS_WRITERS),
    db
      .select({
        n: sql<number>`sum(case when ${d.deliveredAt} > ${now - STATUS_WINDOW_MS} then 1 else 0 end)`,
        last: max(d.deliveredAt),
      })
      .from(d),
    db
      .select({ host: p.host, since: p.failingSince, lastFailureAt: p.lastFailureAt })
      .from(p)
      .where(and(isNotNull(p.failingSince), gt(p.failingSince, 0)))
      .orderBy(p.failingSince)
      .limit(STATUS_FAILING),
  ]);
  const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);
  return {
    siteHandle: `@${site.handle}@${site.host}`,
    siteFollowers: siteRows[0]?.n ?? 0,
    totalFollowers: totals[0]?.n ?? 0,
    writers: writers.map((w) => ({
      userId: w.userId,
      name: w.name,
      handle: `@${w.handle}@${site.host}`,
      followers: w.followers,
    })),
    deliveries: {
      recent: Number(recent[0]?.n ?? 0),
      lastAt: iso(recent[0]?.last),
      failing: failing.map((r) => ({ host: r.host, since: iso(r.since)!, lastFailureAt: iso(r.lastFailureAt) })),
    },
  };
}

/** The admin's Fediverse page: the site's handle, who follows it and its writers, how deliveries fare. */
export function createStatus(
  k: Kernel,
  { actors, host }: { actors: { site(): Promise<{ handle: string }> }; host: string },
) {
  const { db } = k;
  return {
    async status(actor: Actor | null): Promise<FederationStatus> {
      requireAdmin(actor);
      const site = await actors.site();
      return federationStatus(db, { handle: site.handle, host });
    },
  };
}
