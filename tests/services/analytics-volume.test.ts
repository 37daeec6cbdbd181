import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import { utcDay, type AnalyticsHit } from "#worker/services/analytics/model.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { schema } from "#worker/db.ts";
import { and, eq } from "drizzle-orm";

const HITS = 20_000;
const BATCH = 100;
const COUNTRIES = ["US", "FR", "DE", "JP", "BR"];

describe("analytics: the consumer at volume", () => {
  it(`folds ${HITS.toLocaleString("en-US")} hits in batches of ${BATCH}, each batch twice, to exact totals (and says how fast)`, async () => {
    const writer = await makeUser();
    const posts = await Promise.all(Array.from({ length: 5 }, () => makeBlog(writer)));
    const day = utcDay(Date.now());
    const minute = Math.floor(Date.now() / 60_000);
    const hits: AnalyticsHit[] = Array.from({ length: HITS }, (_, i) => ({
      kind: "analytics-hit",
      id: `volume${i.toString(36).padStart(8, "0")}`,
      day,
      minute,
      post: posts[i % posts.length]!.id,
      source: ["direct", "search", "newsletter", "fediverse"][i % 4]!,
      refHost: null,
      country: COUNTRIES[i % COUNTRIES.length]!,
      device: i % 3 === 0 ? "mobile" : "desktop",
      browser: "Chrome",
      // 4,000 visitors, each reading several posts.
      visitor: (i % 4_000).toString(16).padStart(32, "0"),
    }));
    const analytics = createServices(env).analytics;
    const started = performance.now();
    for (let i = 0; i < HITS; i += BATCH) {
      const batch = hits.slice(i, i + BATCH);
      await analytics.fold(batch);
      await analytics.fold(batch);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `analytics fold: ${HITS} hits in ${HITS / BATCH} batches, each delivered twice, in ${seconds.toFixed(1)} s: ${(
        (2 * HITS) /
        seconds
      ).toFixed(0)} messages/s (${(HITS / seconds).toFixed(0)} new hits/s)`,
    );
    const d = schema.analyticsDaily;
    const [mine] = await db()
      .select()
      .from(d)
      .where(and(eq(d.scope, `w:${writer.id}`), eq(d.dim, "total"), eq(d.day, day)));
    expect([mine?.pageviews, mine?.visitors]).toEqual([HITS, 4_000]);
    const [one] = await db()
      .select()
      .from(d)
      .where(and(eq(d.scope, `p:${posts[0]!.id}`), eq(d.dim, "total"), eq(d.day, day)));
    // Post 0 gets every fifth hit: visitors i % 4000 with i % 5 == 0, i.e. the 800 multiples of 5 below 4,000.
    expect([one?.pageviews, one?.visitors]).toEqual([HITS / 5, 800]);
  }, 600_000);
});
