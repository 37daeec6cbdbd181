import { configOf } from "#worker/config.ts";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { addDays, RECENT_KEEP_MINUTES, utcDay } from "#worker/services/analytics/model.ts";

/** Rows one prune statement deletes, and statements per table per cron run: a bounded, short write each. */
const PRUNE_BATCH = 5_000;
const PRUNE_ROUNDS = 10;

export function retentionDays(env: Env): number {
  return configOf(env).analytics.retentionDays;
}

/** Deletes `table`'s rows matching `where`, PRUNE_BATCH at a time, at most PRUNE_ROUNDS times. */
async function boundedDelete(db: Db, table: string, where: SQL): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < PRUNE_ROUNDS; i++) {
    const result = await db.run(
      sql`DELETE FROM ${sql.raw(table)} WHERE rowid IN (SELECT rowid FROM ${sql.raw(table)} WHERE ${where} LIMIT ${PRUNE_BATCH})`,
    );
    const changes = Number((result as unknown as D1Result).meta?.changes ?? 0);
    deleted += changes;
    if (changes < PRUNE_BATCH) break;
  }
  return deleted;
}

/**
 * The hourly cron's analytics housekeeping: days past the retention go, and so do what only served
 * counting: hit ids and visitor hashes of days before yesterday (a message is not redelivered that
 * late), minute buckets past the hour, and every salt but today's (so no hash can be traced back).
 */
export async function pruneAnalytics(db: Db, env: Env, now = Date.now()): Promise<{ days: number }> {
  const today = utcDay(now);
  const cutoff = addDays(today, -retentionDays(env));
  const yesterday = addDays(today, -1);
  const [days] = await Promise.all([
    boundedDelete(db, "analytics_daily", sql`day < ${cutoff}`),
    boundedDelete(db, "analytics_seen", sql`day < ${yesterday}`),
    boundedDelete(db, "analytics_visitors", sql`day < ${yesterday}`),
    boundedDelete(db, "analytics_recent", sql`minute < ${Math.floor(now / 60_000) - RECENT_KEEP_MINUTES}`),
    db.run(sql`DELETE FROM analytics_salts WHERE day < ${today}`),
  ]);
  return { days };
}

/** Ids per statement when an account's posts' analytics go (one JSON parameter each). */
const ERASE_CHUNK = 500;

/** A deleted account's posts' analytics: their own rows, the writer's rows, and their lines in the site's top posts. */
export async function eraseAnalytics(db: Db, writerId: string, postIds: string[]): Promise<void> {
  const d1 = db.$client;
  const writer = `w:${writerId}`;
  const statements = [
    d1.prepare("DELETE FROM analytics_daily WHERE scope = ?").bind(writer),
    d1.prepare("DELETE FROM analytics_recent WHERE scope = ?").bind(writer),
  ];
  for (let i = 0; i < postIds.length; i += ERASE_CHUNK) {
    const ids = JSON.stringify(postIds.slice(i, i + ERASE_CHUNK));
    statements.push(
      d1.prepare("DELETE FROM analytics_daily WHERE scope IN (SELECT 'p:' || value FROM json_each(?))").bind(ids),
      d1
        .prepare(
          "DELETE FROM analytics_daily WHERE scope = 'site' AND dim = 'post' AND key IN (SELECT value FROM json_each(?))",
        )
        .bind(ids),
      d1.prepare("DELETE FROM analytics_recent WHERE scope IN (SELECT 'p:' || value FROM json_each(?))").bind(ids),
    );
  }
  await d1.batch(statements);
}
