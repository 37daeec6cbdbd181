import { sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { RateLimited } from "#worker/services/shared/errors.ts";

/**
 * Fixed-window counters in D1. One atomic upsert per hit, so concurrent requests count exactly.
 * Usage: `await services.rateLimit.hit(`login:${email}`, 10, 15 * 60)` throws RateLimited (429) past the limit.
 */
export function createRateLimitService(db: Db) {
  return {
    async hit(key: string, limit: number, windowSeconds: number): Promise<void> {
      const now = Date.now();
      const windowStart = now - (now % (windowSeconds * 1000));
      const [row] = await db
        .insert(schema.rateLimits)
        .values({ key, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: schema.rateLimits.key,
          set: {
            count: sql`case when ${schema.rateLimits.windowStart} = ${windowStart} then ${schema.rateLimits.count} + 1 else 1 end`,
            windowStart,
          },
        })
        .returning({ count: schema.rateLimits.count });
      if ((row?.count ?? 0) > limit) {
        throw new RateLimited(Math.ceil((windowStart + windowSeconds * 1000 - now) / 1000));
      }
    },

    /** Refuses (429) once `key` has been counted `limit` times in this window, without counting this call. */
    async check(key: string, limit: number, windowSeconds: number): Promise<void> {
      const now = Date.now();
      const windowStart = now - (now % (windowSeconds * 1000));
      const row = await db.query.rateLimits.findFirst({ where: sql`${schema.rateLimits.key} = ${key}` });
      if (row && row.windowStart === windowStart && row.count >= limit) {
        throw new RateLimited(Math.ceil((windowStart + windowSeconds * 1000 - now) / 1000));
      }
    },

    /** Counts one more for `key` in this window (a failure, say), never refusing. */
    async count(key: string, windowSeconds: number): Promise<void> {
      try {
        await this.hit(key, Number.MAX_SAFE_INTEGER, windowSeconds);
      } catch {
        // hit never refuses with this limit
      }
    },

    /** Takes back one count of this window (a try that turned out to be no failure). */
    async giveBack(key: string, windowSeconds: number): Promise<void> {
      const now = Date.now();
      const windowStart = now - (now % (windowSeconds * 1000));
      await db
        .update(schema.rateLimits)
        .set({ count: sql`max(${schema.rateLimits.count} - 1, 0)` })
        .where(sql`${schema.rateLimits.key} = ${key} and ${schema.rateLimits.windowStart} = ${windowStart}`);
    },

    async reset(key: string): Promise<void> {
      await db.delete(schema.rateLimits).where(sql`${schema.rateLimits.key} = ${key}`);
    },
  };
}
export type RateLimitService = ReturnType<typeof createRateLimitService>;
