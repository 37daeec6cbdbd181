import { z } from "zod";
import type { Env } from "#worker/env.ts";
import { configOf } from "#worker/config.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { utcDay, type AnalyticsHit } from "#worker/services/analytics/model.ts";

/**
 * The benchmark's producer (`npm run bench:analytics`): queues synthetic hits straight to ANALYTICS_QUEUE,
 * as the beacon would after its checks, so a million hits go through the real queue and consumer in
 * minutes instead of the hours `wrangler dev` needs to answer a million beacons over HTTP. Open only when
 * ANALYTICS_BENCH_HOOKS is "true" (never in production: 404 otherwise). Hit `i` of a run is the same
 * every time (source, country, device and browser cycle; a third of the visitors repeat), so a run's
 * totals are known in advance.
 */
export const benchInput = z.object({
  /** Hits in this request (the script sends many requests): at most 10,000, queued 100 a batch. */
  count: z.number().int().min(1).max(10_000),
  /** The first hit's index in the run (variety and visitor hashes follow it). */
  offset: z.number().int().min(0).default(0),
  /** Published posts the hits read (a tenth of the hits are of the home page). */
  posts: z.array(z.string().min(1).max(40)).min(1).max(100),
});

const SOURCES = [
  { source: "direct", refHost: null },
  { source: "search", refHost: "www.google.com" },
  { source: "social", refHost: "news.ycombinator.com" },
  { source: "newsletter", refHost: null },
  { source: "site", refHost: "example.org" },
] as const;
const COUNTRIES = ["US", "FR", "DE", "JP", "BR", "IN", "GB", "NL", "CA", "ES", "IT", "AU"];
const DEVICES = [
  ["desktop", "Chrome"],
  ["mobile", "Safari"],
  ["desktop", "Firefox"],
  ["tablet", "Safari"],
] as const;
/** Hits per queue batch: the Queues limit of one sendBatch. */
const BATCH = 100;

export function syntheticHit(i: number, posts: readonly string[], now: number): AnalyticsHit {
  const { source, refHost } = SOURCES[i % SOURCES.length]!;
  const [device, browser] = DEVICES[i % DEVICES.length]!;
  return {
    kind: "analytics-hit",
    id: newId(),
    day: utcDay(now),
    minute: Math.floor(now / 60_000),
    post: i % 10 === 0 ? null : posts[i % posts.length]!,
    source,
    refHost,
    country: COUNTRIES[i % COUNTRIES.length]!,
    device,
    browser,
    visitor: (Math.floor(i / 3) + 1).toString(16).padStart(32, "0"),
  };
}

/** Queues `count` synthetic hits; answers how many were queued. */
export async function queueSyntheticHits(env: Env, input: unknown, now = Date.now()): Promise<number> {
  if (!configOf(env).analytics.benchHooks || !env.ANALYTICS_QUEUE) throw new NotFound("No such endpoint.");
  const { count, offset, posts } = parse(benchInput, input);
  const queue = env.ANALYTICS_QUEUE;
  const batches: Promise<unknown>[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const size = Math.min(BATCH, count - start);
    const messages = Array.from({ length: size }, (_, k) => ({
      body: syntheticHit(offset + start + k, posts, now),
      contentType: "json" as const,
    }));
    batches.push(queue.sendBatch(messages));
  }
  await Promise.all(batches);
  return count;
}
