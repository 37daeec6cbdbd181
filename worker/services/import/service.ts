import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { CATEGORIES, type Category } from "#worker/services/categories.ts";
import { IMPORT_ERRORS, MAX_IMPORT_BYTES } from "#worker/services/import/archive.ts";
import { assignIdsAndGhostUrls } from "#worker/services/import/ghost-urls.ts";
import { postImages, readExport, summarize, type ImportSummary } from "#worker/services/import/summary.ts";
import * as outcome from "#worker/services/import/outcome.ts";
import { resolveRelativeImages, sourceOrigin } from "#worker/services/import/source-url.ts";
import type { ParsedImport } from "#worker/services/import/types.ts";
import { ledgerOf, type StagedPost } from "#worker/services/import/post.ts";
import { retryFailedImages } from "#worker/services/import/retry.ts";
import { Conflict, NotFound, tooLarge, ValidationError } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { pageCount, parsePaging } from "#worker/services/shared/pagination.ts";
import { isAdmin, requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export const IMPORTS_PER_HOUR = 10;
const SUBSCRIBER_SLICE = 50;
/** Follows one queue item restores (one D1 batch of as many statements). */
const FOLLOW_SLICE = 50;
/** D1 binds at most 100 parameters a statement: staged rows go in tens (7 columns each). */
const ROWS_PER_INSERT = 10;
/** What the report (the ledger) lists: posts, the source's pages skipped, and this site's own pages restored. */
const LEDGER_KINDS: ("post" | "page" | "site-page")[] = ["post", "page", "site-page"];

export type ImportScope = "site" | "own";
export type { ImportSummary };

export const confirmInput = z.object({
  default_category: z.enum(CATEGORIES, { error: `Choose one of: ${CATEGORIES.join(", ")}.` }),
  map: z.record(z.string(), z.union([z.enum(CATEGORIES), z.literal("")])).default({}),
});

/** Why a post of this site's own export is not imported: the post it was is still here. */
export const ALREADY_HERE = "already on this site";

/** The ids of this site's own export (kept ids) that name a post still here. */
async function postsStillHere(db: Db, parsed: ParsedImport): Promise<Set<string>> {
  const kept = parsed.posts.flatMap((p) => (p.id ? [p.id] : []));
  const found = new Set<string>();
  for (let i = 0; i < kept.length; i += 90) {
    const rows = await db
      .select({ id: schema.blogs.id })
      .from(schema.blogs)
      .where(inArray(schema.blogs.id, kept.slice(i, i + 90)));
    for (const r of rows) found.add(r.id);
  }
  return found;
}

export function createImportService(k: Kernel) {
  const { db, env, rateLimit } = k;
  const j = schema.importJobs;
  const it = schema.importItems;

  async function ownJob(actor: Actor | null, jobId: string) {
    const user = requireUser(actor);
    const job = await db.query.importJobs.findFirst({ where: eq(j.id, jobId) });
    if (!job || (job.ownerId !== user.id && !isAdmin(user)) || (job.scope === "site" && !isAdmin(user)))
      throw new NotFound("Import not found.");
    return job;
  }

  return {
    /**
     * Reads an export file, refuses it whole if it is bad (nothing written), and stages its records
     * for the preview: an admin's import ("site") maps authors by email; a writer's ("own") makes
     * every post theirs and leaves subscribers out. `sourceUrl` (optional) is the old site's address, for
     * an export that does not name it (Ghost's images are `__GHOST_URL__/content/images/…`).
     */
    async start(
      actor: Actor | null,
      upload: unknown | (() => Promise<unknown>),
      scope: ImportScope,
      sourceUrl?: unknown,
    ): Promise<{ jobId: string }> {
      const user = scope === "site" ? requireAdmin(actor) : requireUser(actor);
      const origin = sourceOrigin(sourceUrl);
      // The REST adapter hands a reader: the body is read only once the caller may import.
      const file: unknown = typeof upload === "function" ? await (upload as () => Promise<unknown>)() : upload;
      if (!(file instanceof Blob) || file.size === 0)
        throw new ValidationError({ file: IMPORT_ERRORS.empty }, IMPORT_ERRORS.empty, "import-empty");
      if (file.size > MAX_IMPORT_BYTES) throw tooLarge(IMPORT_ERRORS.tooLarge, "import-too-large");
      await rateLimit.hit(`import:${user.id}`, IMPORTS_PER_HOUR, 60 * 60);
      const parsed = readExport(new Uint8Array(await file.arrayBuffer()));
      if (origin && !parsed.origin) parsed.origin = origin;
      resolveRelativeImages(parsed);
      const subscribers = scope === "site" ? parsed.subscribers : [];
      const sitePages = scope === "site" ? parsed.sitePages : [];
      // Follows are between accounts: only an admin's site import restores them (a writer's file speaks for them alone).
      const follows = scope === "site" ? parsed.follows : [];
      if (parsed.posts.length + subscribers.length + sitePages.length + follows.length === 0) {
        const text = "The file holds no posts to import.";
        throw new ValidationError({ file: text }, text, "import-empty-export");
      }
      const jobId = newId();
      // Pages are not imported, but the ledger keeps each one, skipped, and the counts include them.
      const pages = parsed.skipped.filter((s) => s.sourceKey);
      const summary = summarize(parsed, subscribers.length, pages.length, sitePages.length, follows.length);

      // Archive images wait in R2 under the job until the consumer copies them (deleted when it ends).
      const staged = new Map<string, string>();
      let n = 0;
      for (const [ref, bytes] of parsed.archiveImages) {
        const key = `import-staging/${jobId}/${n++}`;
        await env.IMAGES.put(key, bytes);
        staged.set(ref, key);
      }
      // Each post's id here, chosen now so links between the export's own posts can name it.
      const ids = await assignIdsAndGhostUrls(db, parsed, () => newId(), ledgerOf({ scope, ownerId: user.id }));
      // Only an admin's import keeps a post's id: a writer's own import makes copies that are theirs.
      if (scope !== "site") for (const p of parsed.posts) delete p.id;
      const present = await postsStillHere(db, parsed);
      const rows: (typeof it.$inferInsert)[] = parsed.posts.map((p, seq) => {
        const archive: Record<string, string> = {};
        for (const src of postImages(p)) if (staged.has(src)) archive[src] = staged.get(src)!;
        const payload: StagedPost = { ...p, archive, blogId: p.id ?? ids[seq] };
        return {
          jobId,
          seq,
          kind: "post",
          sourceKey: p.sourceKey,
          title: p.title.slice(0, 200),
          payload: JSON.stringify(payload),
          // Still on this site (its own export imported back): the post stays as it is, nothing is copied.
          ...(p.id && present.has(p.id)
            ? { state: "skipped" as const, blogId: p.id, note: JSON.stringify({ reason: ALREADY_HERE }) }
            : {}),
        };
      });
      for (const page of pages)
        rows.push({
          jobId,
          seq: rows.length,
          kind: "page",
          sourceKey: page.sourceKey!,
          title: page.title.slice(0, 200),
          payload: "{}",
          state: "skipped",
          note: JSON.stringify({ reason: page.reason }),
        });
      for (const page of sitePages)
        rows.push({
          jobId,
          seq: rows.length,
          kind: "site-page",
          sourceKey: `site-page:${page.slug}`,
          title: page.title.slice(0, 200),
          payload: JSON.stringify({ slug: page.slug, body: page.body }),
        });
      for (let i = 0; i < subscribers.length; i += SUBSCRIBER_SLICE)
        rows.push({
          jobId,
          seq: rows.length,
          kind: "subscribers",
          sourceKey: `subscribers:${i}`,
          title: "",
          payload: JSON.stringify(subscribers.slice(i, i + SUBSCRIBER_SLICE)),
        });
      // Last: the queue claims items in order, so the follows meet the accounts the posts brought in.
      for (let i = 0; i < follows.length; i += FOLLOW_SLICE)
        rows.push({
          jobId,
          seq: rows.length,
          kind: "follows",
          sourceKey: `follows:${i}`,
          title: "",
          payload: JSON.stringify(follows.slice(i, i + FOLLOW_SLICE)),
        });
      // The job and every staged row in one batch: a failure leaves nothing half-staged.
      const statements = [
        db.insert(j).values({
          id: jobId,
          ownerId: user.id,
          scope,
          platform: parsed.platform,
          filename: file instanceof File ? file.name.slice(0, 200) : "export",
          total: parsed.posts.length + pages.length + sitePages.length,
          done: pages.length + present.size,
          skipped: pages.length + present.size,
          summary: JSON.stringify(summary),
        }),
      ];
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
        statements.push(db.insert(it).values(rows.slice(i, i + ROWS_PER_INSERT)) as unknown as (typeof statements)[0]);
      await db.batch(statements as [(typeof statements)[0], ...typeof statements]);
      return { jobId };
    },

    /** The preview's answer: where unmatched categories go; then the queue takes it from there. */
    async confirm(actor: Actor | null, jobId: string, input: unknown): Promise<void> {
      const job = await ownJob(actor, jobId);
      const result = confirmInput.safeParse(input);
      if (!result.success) {
        const text = result.error.issues[0]?.message ?? "Choose a category.";
        throw new ValidationError({ default_category: text }, text);
      }
      const map = Object.fromEntries(Object.entries(result.data.map).filter(([, v]) => v !== ""));
      const started = await db
        .update(j)
        .set({
          status: "running",
          updatedAt: Date.now(),
          defaultCategory: result.data.default_category,
          categoryMap: JSON.stringify(map),
        })
        .where(and(eq(j.id, job.id), eq(j.status, "preview")))
        .returning({ id: j.id });
      if (started.length === 0) throw new Conflict("This import has already started.", "import-started");
      await env.IMPORT_QUEUE.send({ kind: "import", jobId: job.id });
    },

    /** The job as its page shows it: progress, the preview's summary, and (when done) a page of the report. */
    async get(actor: Actor | null, jobId: string, query: { page?: unknown } = {}) {
      const job = await ownJob(actor, jobId);
      const summary = JSON.parse(job.summary) as ImportSummary;
      const paging = parsePaging({ page: query.page }, 50);
      const [items, [totals], subscriberSlices, byKind] = await db.batch([
        db
          .select({ seq: it.seq, title: it.title, state: it.state, blogId: it.blogId, note: it.note })
          .from(it)
          .where(
            and(eq(it.jobId, job.id), inArray(it.kind, LEDGER_KINDS), inArray(it.state, ["done", "skipped", "failed"])),
          )
          .orderBy(asc(it.seq))
          .limit(paging.limit)
          .offset(paging.offset),
        db
          .select({ n: sql<number>`count(*)` })
          .from(it)
          .where(
            and(eq(it.jobId, job.id), inArray(it.kind, LEDGER_KINDS), inArray(it.state, ["done", "skipped", "failed"])),
          ),
        outcome.subscriberSlicesQuery(db, job.id),
        outcome.byKindQuery(db, job.id),
      ]);
      return {
        job: {
          id: job.id,
          platform: job.platform,
          filename: job.filename,
          scope: job.scope,
          status: job.status,
          total: job.total,
          done: job.done,
          imported: job.imported,
          skipped: job.skipped,
          failed: job.failed,
          imagesDone: job.imagesDone,
          imagesFailed: job.imagesFailed,
          defaultCategory: job.defaultCategory as Category,
          createdAt: new Date(job.createdAt).toISOString(),
        },
        summary,
        // Issue 47: what became of each subscriber, and each kind of entry by state (pages are not posts).
        subscribers: outcome.subscriberOutcome(summary.subscribers, subscriberSlices),
        counts: outcome.countsByKind(byKind),
        report: {
          items: items.map((i) => ({ ...i, note: i.note ? (JSON.parse(i.note) as Record<string, unknown>) : {} })),
          page: paging.page,
          pages: pageCount(totals?.n ?? 0, paging.limit),
        },
      };
    },

    /** Fetches a finished import's failed images again, putting each one copied now into its post. */
    async retryImages(actor: Actor | null, jobId: string) {
      const job = await ownJob(actor, jobId);
      if (job.status !== "done")
        throw new Conflict("Failed images can be retried once the import has finished.", "import-not-finished");
      return retryFailedImages(k, job);
    },

    /** The actor's recent imports (an admin's page lists the site's). */
    async list(actor: Actor | null) {
      const user = requireUser(actor);
      return db
        .select({
          id: j.id,
          platform: j.platform,
          filename: j.filename,
          status: j.status,
          total: j.total,
          done: j.done,
          createdAt: j.createdAt,
        })
        .from(j)
        .where(user.role === "admin" ? undefined : eq(j.ownerId, user.id))
        .orderBy(desc(j.createdAt))
        .limit(10);
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
