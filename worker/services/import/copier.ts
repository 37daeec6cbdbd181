import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "#worker/db.ts";
import { fetchImage, ImageCopyError, putImportedImage } from "#worker/services/import/images.ts";
import type { StagedPost } from "#worker/services/import/post.ts";
import { postImages } from "#worker/services/import/summary.ts";
import type { Kernel } from "#worker/services/kernel.ts";

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

/** Rows per multi-row insert: D1 binds at most 100 parameters per statement. */
const IMAGE_ROWS_PER_INSERT = 15;
const LEDGER_ROWS_PER_INSERT = 20;

type ImageRow = typeof schema.images.$inferInsert;
interface Copied {
  src: string;
  result: CopyResult;
  /** The images row of a copy put in R2, not yet written. */
  image: ImageRow | null;
}

/**
 * The images of one import, copied once each: by source URL within the job (D1's import_images, so a
 * later batch reuses an earlier one's copy or failure), fetched in parallel with IMAGE_FETCHES_PER_HOST at
 * most per host, each fetch keeping its own timeout and size cap (images.ts). A post's new copies are
 * recorded together: their images rows and ledger rows in one D1 batch, not two calls per image.
 */
export function createImageCopier(k: Kernel, job: { id: string; ownerId: string }) {
  const { db, env } = k;
  const { id: jobId, ownerId } = job;
  const t = schema.importImages;
  const limit = hostLimiter(IMAGE_FETCHES_PER_HOST);

  async function fresh(src: string, post: StagedPost): Promise<Copied> {
    try {
      let bytes: Uint8Array;
      if (src.startsWith("archive:")) {
        const staged = post.archive[src] ? await env.IMAGES.get(post.archive[src]) : null;
        if (!staged) throw new ImageCopyError("missing from the archive");
        bytes = new Uint8Array(await staged.arrayBuffer());
      } else bytes = await limit(src, () => fetchImage(env, src));
      const { path, row } = await putImportedImage(env, bytes, ownerId);
      return { src, result: { path }, image: row };
    } catch (err) {
      if (!(err instanceof ImageCopyError)) throw err;
      return { src, result: { reason: err.message }, image: null };
    }
  }

  /**
   * Writes copies' images rows and ledger rows in one D1 batch. A first copy never overwrites a ledger row
   * (a redelivered batch keeps the first answer); a retry replaces its row either way.
   */
  async function record(copies: Copied[], retry: boolean): Promise<void> {
    if (copies.length === 0) return;
    const images = copies.flatMap((c) => (c.image ? [c.image] : []));
    const ledger = copies.map((c) => ({
      jobId,
      url: c.src,
      path: "path" in c.result ? c.result.path : null,
      reason: "reason" in c.result ? c.result.reason : null,
    }));
    const statements: BatchItem<"sqlite">[] = [];
    for (let i = 0; i < images.length; i += IMAGE_ROWS_PER_INSERT)
      statements.push(db.insert(schema.images).values(images.slice(i, i + IMAGE_ROWS_PER_INSERT)));
    for (let i = 0; i < ledger.length; i += LEDGER_ROWS_PER_INSERT) {
      const rows = db.insert(t).values(ledger.slice(i, i + LEDGER_ROWS_PER_INSERT));
      statements.push(
        retry
          ? rows.onConflictDoUpdate({
              target: [t.jobId, t.url],
              set: { path: sql`excluded.path`, reason: sql`excluded.reason` },
            })
          : rows.onConflictDoNothing(),
      );
    }
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  }

  /** Copies already in the ledger (this job's earlier batches, or recorded by this one). */
  const recorded = new Map<string, CopyResult>();
  /** Copies started and not yet recorded. */
  const pending = new Map<string, Promise<Copied>>();

  function begin(src: string, post: StagedPost): Promise<Copied> {
    const copy = fresh(src, post);
    // A copy nobody waits for (its post was skipped) must not reject unheard; flush still records it.
    copy.catch(() => undefined);
    pending.set(src, copy);
    return copy;
  }

  /** Waits for these sources' copies (starting any not started), records the new ones in one batch, in order. */
  async function settle(sources: string[], post: StagedPost, retry: boolean): Promise<CopyResult[]> {
    const waits = sources.map((src): CopyResult | Promise<Copied> => {
      if (src.startsWith("/images/")) return { path: src };
      if (retry) return fresh(src, post);
      return recorded.get(src) ?? pending.get(src) ?? begin(src, post);
    });
    const copies = await Promise.all(waits.map((w) => (w instanceof Promise ? w : null)));
    const unrecorded = new Map<string, Copied>();
    for (const c of copies) if (c && (retry || !recorded.has(c.src))) unrecorded.set(c.src, c);
    await record([...unrecorded.values()], retry);
    for (const c of unrecorded.values()) {
      recorded.set(c.src, c.result);
      pending.delete(c.src);
    }
    return waits.map((w, i) => (w instanceof Promise ? copies[i]!.result : w));
  }

  return {
    /**
     * Starts copying every image of these posts at once (bounded per host) after reading the ledger for
     * earlier batches' copies, without waiting: each post then waits only for its own images (`copyAll`),
     * so the first posts are written while the later ones' images are still arriving.
     */
    async start(posts: StagedPost[]): Promise<void> {
      const wanted = new Map<string, StagedPost>();
      for (const post of posts)
        for (const src of postImages(post).slice(0, MAX_IMAGES_PER_POST))
          if (!src.startsWith("/images/") && !recorded.has(src) && !pending.has(src)) wanted.set(src, post);
      const urls = [...wanted.keys()];
      for (let i = 0; i < urls.length; i += 90) {
        const rows = await db
          .select()
          .from(t)
          .where(and(eq(t.jobId, jobId), inArray(t.url, urls.slice(i, i + 90))));
        for (const r of rows) recorded.set(r.url, r.path ? { path: r.path } : { reason: r.reason ?? "" });
      }
      for (const [src, post] of wanted) if (!recorded.has(src)) begin(src, post);
    },

    /** One post's images: each copy (started by `start`, else now), the new ones recorded in one D1 batch. */
    copyAll(sources: string[], post: StagedPost): Promise<CopyResult[]> {
      return settle(sources, post, false);
    },

    /** Failed images fetched again (the retry action): their rows updated either way. */
    retryAll(sources: string[], post: StagedPost): Promise<CopyResult[]> {
      return settle(sources, post, true);
    },

    /** Records copies started for posts that never asked for them (skipped ones), so no stored image is unrecorded. */
    async flush(): Promise<void> {
      const left = await Promise.allSettled(pending.values());
      await record(
        left.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])),
        false,
      );
      pending.clear();
    },
  };
}

export type ImageCopier = ReturnType<typeof createImageCopier>;
