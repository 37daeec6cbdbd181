import { and, eq } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { CATEGORIES, type Category } from "#worker/services/categories.ts";
import { tagWrites } from "#worker/services/blogs/tags.ts";
import { categoryFor, importedTags, withImageUrls } from "#worker/services/import/mapping.ts";
import { markdownImages } from "#worker/services/import/html.ts";
import { ensurePlaceholder, PLACEHOLDER_URL } from "#worker/services/import/images.ts";
import { MAX_IMAGES_PER_POST, type ImageCopier } from "#worker/services/import/copier.ts";
import { postImages } from "#worker/services/import/summary.ts";
import type { ImportedAuthor, ImportedPost } from "#worker/services/import/types.ts";
import { normalizeDateTime } from "#worker/services/shared/datetime.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/**
 * The comments as rows with ids of their own, each reply naming its parent's new id: top comments first
 * (a reply's insert needs its parent), a reply to a reply under the same top comment (one level, as the
 * site threads), and a reply whose parent did not come in (no address) standing as a top comment.
 */
export function threaded(
  rows: { userId: string; body: string; createdAt: number; sourceId?: string; parentSourceId?: string | null }[],
) {
  const bySource = new Map(rows.filter((r) => r.sourceId).map((r) => [r.sourceId!, r]));
  // The first ancestor with no parent here; none for a top comment, or for a loop (a broken file).
  const topOf = (r: (typeof rows)[number]) => {
    const seen = new Set([r]);
    let at = r;
    while (at.parentSourceId && bySource.has(at.parentSourceId)) {
      at = bySource.get(at.parentSourceId)!;
      if (seen.has(at)) return null;
      seen.add(at);
    }
    return at === r ? null : at;
  };
  const ids = new Map(rows.map((r) => [r, newId()]));
  const out = rows.map((r) => {
    const top = topOf(r);
    return {
      id: ids.get(r)!,
      userId: r.userId,
      body: r.body,
      createdAt: r.createdAt,
      parentId: top ? ids.get(top)! : null,
    };
  });
  return [...out.filter((r) => !r.parentId), ...out.filter((r) => r.parentId)];
}

/** Whose "already imported" ledger a job reads and writes: the site's (admins) or the importing writer's. */
export const ledgerOf = (job: { scope: string; ownerId: string | null }) =>
  job.scope === "site" ? "site" : `user:${job.ownerId ?? ""}`;

/** A staged post: the normalised record and the staged R2 keys of the archive images it uses. */
export type StagedPost = ImportedPost & { archive: Record<string, string>; blogId?: string };

/** What importing one staged item did, for the ledger and the job's counts. */
export interface ItemResult {
  state: "done" | "skipped" | "failed";
  blogId: string | null;
  note: unknown;
  copied?: number;
  failedImages?: unknown[];
}

/**
 * One staged post into this site: its author (by email), its images copied into R2, the post, its
 * tags, its comments and its ledger row in one D1 batch, then the purge any new post makes.
 */
export function createPostImporter(k: Kernel) {
  const { db, env, purge } = k;
  /** An account for an author or commenter: theirs by email, or a new one with no password. */
  async function accountFor(person: ImportedAuthor | null, fallback: typeof schema.users.$inferSelect) {
    const email = person?.email?.trim().toLowerCase();
    if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > LIMITS.email) return fallback;
    const found = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    if (found) return found;
    const name = (person?.name || email.split("@")[0]!).slice(0, LIMITS.name);
    await db
      .insert(schema.users)
      .values({ id: newId(), name, email, passwordHash: null, role: "user" })
      .onConflictDoNothing();
    return (await db.query.users.findFirst({ where: eq(schema.users.email, email) })) ?? fallback;
  }

  /**
   * The comments a post brings, as rows here. A site import (an admin's) gives each commenter with an
   * address their account (found, or made without a password). A writer's own import makes no account and
   * writes as nobody else: their own comments stay theirs, and each other one becomes the writer's quote
   * of it, the original author's name and date as text. A comment with no usable address is skipped.
   */
  async function commentsFor(
    job: typeof schema.importJobs.$inferSelect,
    post: StagedPost,
    owner: typeof schema.users.$inferSelect,
  ) {
    const rows: {
      userId: string;
      body: string;
      createdAt: number;
      sourceId?: string;
      parentSourceId?: string | null;
    }[] = [];
    let skipped = 0;
    let quoted = 0;
    for (const comment of post.comments) {
      const thread = { sourceId: comment.sourceId, parentSourceId: comment.parentSourceId ?? null };
      const email = comment.authorEmail?.trim().toLowerCase() ?? "";
      const createdAt = Date.parse(comment.date) || Date.now();
      if (job.scope === "own") {
        if (email && email === owner.email.toLowerCase()) {
          rows.push({ userId: owner.id, body: comment.body.slice(0, LIMITS.comment), createdAt, ...thread });
          continue;
        }
        const day = new Date(createdAt).toISOString().slice(0, 10);
        const body = `${comment.authorName || "Anonymous"} wrote on ${day}:\n\n${comment.body}`;
        rows.push({ userId: owner.id, body: body.slice(0, LIMITS.comment), createdAt, ...thread });
        quoted += 1;
        continue;
      }
      const who = email ? await accountFor({ name: comment.authorName, email }, owner) : null;
      // No address (or an unusable one): the comment has nobody to belong to here.
      if (!who || (who.id === owner.id && email !== owner.email)) {
        skipped += 1;
        continue;
      }
      rows.push({ userId: who.id, body: comment.body.slice(0, LIMITS.comment), createdAt, ...thread });
    }
    return { rows: threaded(rows), skipped, quoted };
  }

  return async function importPost(
    job: typeof schema.importJobs.$inferSelect,
    post: StagedPost,
    owner: typeof schema.users.$inferSelect,
    images: ImageCopier,
  ): Promise<ItemResult> {
    const importer = ledgerOf(job);
    const known = await db.query.importedSources.findFirst({
      where: and(eq(schema.importedSources.importer, importer), eq(schema.importedSources.sourceKey, post.sourceKey)),
    });
    if (known) return { state: "skipped" as const, blogId: known.targetId, note: { reason: "already imported" } };
    const author = job.scope === "own" ? owner : await accountFor(post.author, owner);

    const failedImages: { url: string; reason: string }[] = [];
    let copied = 0;
    const urls = new Map<string, string>();
    const sources = postImages(post);
    const results = [
      ...(await images.copyAll(sources.slice(0, MAX_IMAGES_PER_POST), post)),
      ...sources
        .slice(MAX_IMAGES_PER_POST)
        .map(() => ({ reason: `more than ${MAX_IMAGES_PER_POST} images in one post` })),
    ];
    for (const [i, src] of sources.entries()) {
      const result = results[i]!;
      if ("path" in result) {
        urls.set(src, result.path);
        copied += 1;
      } else {
        failedImages.push({ url: src.replace(/^archive:/, ""), reason: result.reason });
        urls.set(src, PLACEHOLDER_URL);
      }
    }
    if (failedImages.length > 0) await ensurePlaceholder(env);
    const markdown = withImageUrls(post.markdown, urls);
    const firstImage = markdownImages(markdown)[0];
    // A post with no image at all has no cover (no grey hero or grey cards; its share image is the drawn card):
    // the grey stand-in marks only an image that could not be copied, which "Retry failed images" can replace.
    const image = post.cover ? (urls.get(post.cover) ?? PLACEHOLDER_URL) : (firstImage ?? "");
    if (image === PLACEHOLDER_URL) await ensurePlaceholder(env);

    const fallback = (CATEGORIES as readonly string[]).includes(job.defaultCategory)
      ? (job.defaultCategory as Category)
      : "Lifestyle";
    const category = categoryFor(post.categories, JSON.parse(job.categoryMap) as Record<string, string>, fallback);
    const { tags, dropped: tagsDropped } = importedTags(post, category);
    // Staged with its id (links between the export's own posts already point at it), else a new one.
    const blogId = post.blogId ?? newId();
    const dateTime = normalizeDateTime(post.date) ?? new Date().toISOString();
    const at = Date.parse(dateTime);
    const status = post.status === "scheduled" && !(at > Date.now()) ? "published" : post.status;
    const title = post.title.slice(0, LIMITS.title);
    // The share image: its copy when it came in the archive (none when that failed: the cover stands in).
    const social = post.socialImage ?? "";
    const socialImage = urls.has(social) ? (urls.get(social) === PLACEHOLDER_URL ? "" : urls.get(social)!) : social;
    const statements = [];
    statements.push(
      db.insert(schema.blogs).values({
        id: blogId,
        authorId: author.id,
        title,
        shortDescription: (post.description || title).slice(0, LIMITS.shortDescription),
        metaDescription: (post.metaDescription ?? "").slice(0, LIMITS.metaDescription),
        seoTitle: (post.seoTitle ?? "").trim().slice(0, LIMITS.seoTitle),
        newsletterContent: post.newsletterContent ?? "",
        visibility: post.visibility ?? "public",
        socialImage,
        blogDetails: markdown || post.description || title,
        category,
        tags: tags.join(","),
        authorName: author.name,
        email: author.email,
        authorImage: author.photoUrl,
        dateTime,
        image,
        likes: 0,
        status,
        publishAt: status === "scheduled" ? at : null,
        // An imported post was news elsewhere, long ago: it never goes to this site's subscribers.
        emailSubscribers: false,
        createdAt: at || Date.now(),
      }),
      db.insert(schema.importedSources).values({ importer, sourceKey: post.sourceKey, targetId: blogId }),
      ...tagWrites(db, blogId, tags, false),
    );
    const { rows: commentRows, skipped: commentsSkipped, quoted: commentsQuoted } = await commentsFor(job, post, owner);
    for (const row of commentRows) statements.push(db.insert(schema.comments).values({ blogId, ...row }));
    try {
      await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
    } catch (err) {
      // Another delivery of the same message got there first: the ledger's key refused the copy.
      if (/UNIQUE|constraint/i.test(String(err)))
        return { state: "skipped" as const, blogId: null, note: { reason: "already imported" } };
      throw err;
    }
    await purge({ kind: "blog.created" });
    return {
      state: "done" as const,
      blogId,
      copied,
      failedImages,
      note: {
        comments: post.comments.length - commentsSkipped,
        ...(tags.length ? { tags } : {}),
        ...(tagsDropped.length ? { tagsDropped } : {}),
        ...(commentsSkipped ? { commentsSkipped } : {}),
        ...(commentsQuoted ? { commentsQuoted } : {}),
        ...(failedImages.length ? { failedImages } : {}),
        ...(post.warnings?.length ? { warnings: post.warnings } : {}),
      },
    };
  };
}
