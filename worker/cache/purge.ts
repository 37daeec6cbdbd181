import type { Env } from "#worker/env.ts";
import { purgeTags } from "#worker/cache/edge.ts";
import { tagsFor, type WriteEvent } from "#worker/cache/tags.ts";
import { logError } from "#worker/log.ts";

export type Purge = (event: WriteEvent) => Promise<void>;

const RETRY_DELAYS_MS = [500, 2_000, 8_000];

/**
 * What services call after a write: purges the write's tags before the answer goes out (so the next
 * reader sees the change), and never fails the write: a failed purge is logged and retried in
 * `waitUntil` with growing pauses.
 */
export function createPurge(env: Env, ctx?: ExecutionContext): Purge {
  return async (event) => {
    if (COALESCED.has(event.kind)) return coalesce(env, ctx, tagsFor(event));
    const tags = tagsFor(event);
    try {
      await purgeTags(env, ctx, tags);
    } catch (err) {
      logError("cache purge failed", err, { tags });
      ctx?.waitUntil(retry(env, ctx, tags));
    }
  };
}

async function retry(env: Env, ctx: ExecutionContext, tags: string[]) {
  for (const delay of RETRY_DELAYS_MS) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    try {
      await purgeTags(env, ctx, tags);
      return;
    } catch (err) {
      logError("cache purge retry failed", err, { tags });
    }
  }
}

/**
 * Writes whose purges may wait a moment (likes): a tag purged less than COALESCE_MS ago in this isolate
 * is not purged again at once; one trailing purge, after the pause, covers every write in between. So
 * a like loop costs at most one purge per post per pause, and the purge budget stays for deletes and
 * unpublishes, which are never coalesced.
 */
const COALESCED = new Set<WriteEvent["kind"]>(["blog.like"]);
export const COALESCE_MS = 2_000;
const lastPurged = new Map<string, number>();
const trailing = new Set<string>();
const MAX_MARKS = 5_000;

async function coalesce(env: Env, ctx: ExecutionContext | undefined, tags: string[]): Promise<void> {
  const now = Date.now();
  const due: string[] = [];
  for (const tag of tags) {
    const last = lastPurged.get(tag) ?? -Infinity;
    if (now - last >= COALESCE_MS) {
      due.push(tag);
      lastPurged.delete(tag);
      lastPurged.set(tag, now);
    } else if (!trailing.has(tag) && ctx) {
      trailing.add(tag);
      ctx.waitUntil(
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, last + COALESCE_MS - now)));
          trailing.delete(tag);
          lastPurged.set(tag, Date.now());
          await purgeNow(env, ctx, [tag]);
        })(),
      );
    }
  }
  while (lastPurged.size > MAX_MARKS) lastPurged.delete(lastPurged.keys().next().value!);
  if (due.length) await purgeNow(env, ctx, due);
}

async function purgeNow(env: Env, ctx: ExecutionContext | undefined, tags: string[]) {
  try {
    await purgeTags(env, ctx, tags);
  } catch (err) {
    logError("cache purge failed", err, { tags });
    if (ctx) ctx.waitUntil(retry(env, ctx, tags));
  }
}
