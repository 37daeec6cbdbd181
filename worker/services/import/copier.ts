import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { fetchImage, ImageCopyError, storeImportedImage } from "#worker/services/import/images.ts";
import type { StagedPost } from "#worker/services/import/post.ts";
import { postImages } from "#worker/services/import/summary.ts";

/** At most this many image fetches at once to one host: fast, and polite to the old site. */
export const IMAGE_FETCHES_PER_HOST = 6;
export const MAX_IMAGES_PER_POST = 40;

export type CopyResult = { path: string } | { reason: string };

/** Runs tasks with at most `perHost` at once for each URL's host (the others wait their turn, in order). */
export function hostLimiter(perHost: number) {
  const hosts = new Map<string, { active: number; waiting: (() => void)[] }>();
  return async function run<T>(url: string, task: () => Promise<T>): Promise<T> {
    let host = "";
    try {
      host = new URL(url).host;
    } catch {
      // not a URL: the fetch refuses it at once, under the empty host's turn
    }
    const slot = hosts.get(host) ?? { active: 0, waiting: [] };
    hosts.set(host, slot);
    if (slot.active < perHost) slot.active += 1;
    else await new Promise<void>((resolve) => slot.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, or is given back.
      const next = slot.waiting.shift();
      if (next) next();
      else slot.active -= 1;
    }
  };
}

/**
 * The images of one import, copied once each: by source URL within the job (D1's import_images, so a
 * later batch reuses an earlier one's copy or failure), fetched in parallel with IMAGE_FETCHES_PER_HOST at
 * most per host, each fetch keeping its own timeout and size cap (images.ts).
 */
export function createImageCopier(db: Db, env: Env, jobId: string, ownerId: string) {
  const t = schema.importImages;
  const limit = hostLimiter(IMAGE_FETCHES_PER_HOST);
  const memo = new Map<string, Promise<CopyResult>>();

  async function fresh(src: string, post: StagedPost): Promise<CopyResult> {
    try {
      let bytes: Uint8Array;
      if (src.startsWith("archive:")) {
        const staged = post.archive[src] ? await env.IMAGES.get(post.archive[src]) : null;
        if (!staged) throw new ImageCopyError("missing from the archive");
        bytes = new Uint8Array(await staged.arrayBuffer());
      } else bytes = await limit(src, () => fetchImage(env, src));
      return { path: await storeImportedImage(db, env, bytes, ownerId) };
    } catch (err) {
      if (!(err instanceof ImageCopyError)) throw err;
      return { reason: err.message };
    }
  }

  async function copyAndRecord(src: string, post: StagedPost, retry: boolean): Promise<CopyResult> {
    const result = await fresh(src, post);
    const row = {
      jobId,
      url: src,
      path: "path" in result ? result.path : null,
      reason: "reason" in result ? result.reason : null,
    };
    await db
      .insert(t)
      .values(row)
      .onConflictDoUpdate({
        target: [t.jobId, t.url],
        set: retry ? { path: row.path, reason: row.reason } : { jobId },
      });
    return result;
  }

  return {
    /** Starts copying every image of these posts at once (bounded per host), reading earlier batches' copies first. */
    async prefetch(posts: StagedPost[]): Promise<void> {
      const wanted = new Map<string, StagedPost>();
      for (const post of posts)
        for (const src of postImages(post).slice(0, MAX_IMAGES_PER_POST))
          if (!src.startsWith("/images/") && !memo.has(src)) wanted.set(src, post);
      const urls = [...wanted.keys()];
      for (let i = 0; i < urls.length; i += 90) {
        const rows = await db
          .select()
          .from(t)
          .where(and(eq(t.jobId, jobId), inArray(t.url, urls.slice(i, i + 90))));
        for (const r of rows) memo.set(r.url, Promise.resolve(r.path ? { path: r.path } : { reason: r.reason ?? "" }));
      }
      const started = [...wanted].filter(([src]) => !memo.has(src));
      for (const [src, post] of started) memo.set(src, copyAndRecord(src, post, false));
      await Promise.allSettled(started.map(([src]) => memo.get(src)));
    },

    /** One image's copy (started by prefetch, else now). */
    copy(src: string, post: StagedPost): Promise<CopyResult> {
      if (src.startsWith("/images/")) return Promise.resolve({ path: src });
      let found = memo.get(src);
      if (!found) {
        found = copyAndRecord(src, post, false);
        memo.set(src, found);
      }
      return found;
    },

    /** A failed image fetched again (the retry action): its row updated either way. */
    retry(src: string, post: StagedPost): Promise<CopyResult> {
      const again = copyAndRecord(src, post, true);
      memo.set(src, again);
      return again;
    },
  };
}

export type ImageCopier = ReturnType<typeof createImageCopier>;
