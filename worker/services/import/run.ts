import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import type { FollowService } from "#worker/services/follows.ts";
import { createImageCopier } from "#worker/services/import/copier.ts";
import { createPostImporter, type ItemResult, type StagedPost } from "#worker/services/import/post.ts";
import type { ImportedFollow } from "#worker/services/import/types.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import type { NewsletterService } from "#worker/services/newsletter/service.ts";
import type { SitePageService } from "#worker/services/site-pages.ts";
import { logError } from "#worker/log.ts";

export type { ImportJobMessage } from "#worker/queues/messages.ts";

/** Posts one message handles: bounded, so a 5,000-post file is 500 short runs, never one long one. */
export const IMPORT_BATCH = 10;
/** A claimed item not finished after this (its consumer died) is claimed again. */
const STALE_CLAIM_MS = 5 * 60_000;
/** The services an import hands what is theirs to write: this site's export brings each back through its owner. */
export interface ImportRunnerDeps {
  /** Substack's subscribers confirmed there: the newsletter's own CSV import, which never mails an opt-in. */
  newsletter: Pick<NewsletterService, "importCsv">;
  /** The site pages' own save (admins only; it purges the page). */
  sitePages: Pick<SitePageService, "update">;
  /** The follows' own restore (admins only; it notifies nobody). */
  follows: Pick<FollowService, "restore">;
}

export function createImportRunner(k: Kernel, deps: ImportRunnerDeps) {
  const { db, env } = k;
  const j = schema.importJobs;
  const it = schema.importItems;
  const importPost = createPostImporter(k);

  return {
    /**
     * The minute cron's safety net: a running job untouched for STALE_CLAIM_MS (its message lost or
     * dead-lettered) gets a new message. A duplicate is harmless: items are claimed once.
     */
    async resumeStalled(now = Date.now()): Promise<number> {
      const stalled = await db
        .select({ id: j.id })
        .from(j)
        .where(and(eq(j.status, "running"), lt(j.updatedAt, now - STALE_CLAIM_MS)))
        .limit(20);
      for (const { id } of stalled) {
        await db.update(j).set({ updatedAt: now }).where(eq(j.id, id));
        await env.IMPORT_QUEUE.send({ kind: "import", jobId: id });
      }
      return stalled.length;
    },

    /**
     * One bounded batch of a running job: claims up to IMPORT_BATCH pending items, imports each, and
     * answers whether more remain (the caller queues the next message). Redelivery is harmless: an item
     * is claimed once, and the ledger refuses a second copy of any source.
     */
    async runBatch(jobId: string, now = Date.now()): Promise<{ more: boolean }> {
      const job = await db.query.importJobs.findFirst({ where: eq(j.id, jobId) });
      if (!job || job.status !== "running") return { more: false };
      const owner = job.ownerId ? await db.query.users.findFirst({ where: eq(schema.users.id, job.ownerId) }) : null;
      if (!owner) {
        await db.update(j).set({ status: "done", finishedAt: now }).where(eq(j.id, jobId));
        return { more: false };
      }
      await db
        .update(it)
        .set({ state: "pending", claimedAt: null })
        .where(and(eq(it.jobId, jobId), eq(it.state, "working"), lt(it.claimedAt, now - STALE_CLAIM_MS)));
      const next = db
        .select({ seq: it.seq })
        .from(it)
        .where(and(eq(it.jobId, jobId), eq(it.state, "pending")))
        .orderBy(asc(it.seq))
        .limit(IMPORT_BATCH);
      const claimed = await db
        .update(it)
        .set({ state: "working", claimedAt: now })
        .where(and(eq(it.jobId, jobId), eq(it.state, "pending"), inArray(it.seq, next)))
        .returning();
      const actor: Actor = {
        id: owner.id,
        name: owner.name,
        email: owner.email,
        role: owner.role,
        photoURL: owner.photoUrl,
      };
      // Every image of the batch's posts starts at once (bounded per host); each post is written as soon as
      // its own images are in, while the later posts' images are still arriving.
      const images = createImageCopier(k, { id: jobId, ownerId: owner.id });
      const posts = claimed.filter((i) => i.kind === "post").map((i) => JSON.parse(i.payload) as StagedPost);
      await images.start(posts).catch((err: unknown) => logError("import: image prefetch failed", err, { job: jobId }));
      for (const item of claimed.sort((a, b) => a.seq - b.seq)) {
        let result: ItemResult;
        try {
          if (item.kind === "subscribers") {
            const emails = JSON.parse(item.payload) as string[];
            const r =
              owner.role === "admin"
                ? await deps.newsletter.importCsv(actor, `email\n${emails.join("\n")}`)
                : { imported: 0, skipped: 0, notAllowed: emails.length };
            result = { state: "done", blogId: null, note: r };
          } else if (item.kind === "follows") {
            const follows = JSON.parse(item.payload) as ImportedFollow[];
            const r =
              owner.role === "admin"
                ? await deps.follows.restore(actor, follows)
                : { restored: 0, skipped: follows.length };
            result = { state: "done", blogId: null, note: r };
          } else if (item.kind === "site-page") {
            const { slug, body } = JSON.parse(item.payload) as { slug: string; body: string };
            await deps.sitePages.update(actor, slug, { body });
            result = { state: "done", blogId: null, note: { page: `/${slug}` } };
          } else result = await importPost(job, JSON.parse(item.payload) as StagedPost, owner, images);
        } catch (err) {
          logError("import: item failed", err, { job: jobId, item: item.seq });
          result = {
            state: "failed",
            blogId: null,
            note: { reason: err instanceof Error ? err.message : String(err) },
          };
        }
        // The progress counts posts and the site's pages; subscriber and follow slices are bookkeeping.
        const posts = item.kind === "subscribers" || item.kind === "follows" ? 0 : 1;
        await db.batch([
          db
            .update(it)
            .set({ state: result.state, blogId: result.blogId, note: JSON.stringify(result.note) })
            .where(and(eq(it.jobId, jobId), eq(it.seq, item.seq))),
          db
            .update(j)
            .set({
              done: sql`${j.done} + ${posts}`,
              imported: sql`${j.imported} + ${result.state === "done" ? posts : 0}`,
              skipped: sql`${j.skipped} + ${result.state === "skipped" ? posts : 0}`,
              failed: sql`${j.failed} + ${result.state === "failed" ? posts : 0}`,
              imagesDone: sql`${j.imagesDone} + ${result.copied ?? 0}`,
              imagesFailed: sql`${j.imagesFailed} + ${result.failedImages?.length ?? 0}`,
              updatedAt: Date.now(),
            })
            .where(eq(j.id, jobId)),
        ]);
      }
      await images.flush().catch((err: unknown) => logError("import: image ledger failed", err, { job: jobId }));
      const [left] = await db
        .select({ n: sql<number>`count(*)` })
        .from(it)
        .where(and(eq(it.jobId, jobId), inArray(it.state, ["pending", "working"])));
      if ((left?.n ?? 0) > 0) return { more: true };
      await db
        .update(j)
        .set({ status: "done", finishedAt: Date.now() })
        .where(and(eq(j.id, jobId), eq(j.status, "running")));
      // The staged archive copies served their purpose.
      const staged = await env.IMAGES.list({ prefix: `import-staging/${jobId}/`, limit: 1000 });
      if (staged.objects.length) await env.IMAGES.delete(staged.objects.map((o) => o.key));
      return { more: false };
    },
  };
}

export type ImportRunner = ReturnType<typeof createImportRunner>;
