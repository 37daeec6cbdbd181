import type { Env } from "#worker/env.ts";
import { purgeTags } from "#worker/cache/edge.ts";
import { tagsFor, type WriteEvent } from "#worker/cache/tags.ts";

export type Purge = (event: WriteEvent) => Promise<void>;

const RETRY_DELAYS_MS = [500, 2_000, 8_000];

/**
 * What services call after a write: purges the write's tags before the answer goes out (so the next
 * reader sees the change), and never fails the write: a failed purge is logged and retried in
 * `waitUntil` with growing pauses.
 */
export function createPurge(env: Env, ctx?: ExecutionContext): Purge {
  return async (event) => {
    const tags = tagsFor(event);
    try {
      await purgeTags(env, ctx, tags);
    } catch (err) {
      console.error(JSON.stringify({ level: "error", msg: "cache purge failed", tags, cause: String(err) }));
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
      console.error(JSON.stringify({ level: "error", msg: "cache purge retry failed", tags, cause: String(err) }));
    }
  }
}
