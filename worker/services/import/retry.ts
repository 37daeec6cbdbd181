import { and, eq, like, sql } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { createImageCopier } from "#worker/services/import/copier.ts";
import { MARKDOWN_IMAGE } from "#worker/services/import/html.ts";
import { PLACEHOLDER_URL } from "#worker/services/import/images.ts";
import type { StagedPost } from "#worker/services/import/post.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Failed images retried in one request at most (the button can be pressed again for the rest). */
export const RETRY_IMAGES_PER_REQUEST = 200;

const imageSources = (markdown: string) => [...markdown.matchAll(MARKDOWN_IMAGE)].map((m) => m[2] ?? m[3]!);

/**
 * The post's text with each placeholder whose image is now copied pointing at the copy. The i-th image of
 * the text as imported is the i-th image of the post now, unless its writer has since changed its images:
 * then null, and the post is left as it is.
 */
export function withRetriedImages(
  current: string,
  imported: string,
  copies: Map<string, string>,
  placed: Set<string> = new Set(),
): string | null {
  const sources = imageSources(imported);
  if (imageSources(current).length !== sources.length) return null;
  let i = 0;
  return current.replace(
    MARKDOWN_IMAGE,
    (all, alt: string, inAngles: string | undefined, bare: string | undefined, title: string) => {
      const src = sources[i++]!;
      const now = inAngles ?? bare!;
      const copy = copies.get(src);
      if (now !== PLACEHOLDER_URL || !copy) return all;
      placed.add(src);
      return `![${alt}](${copy}${title})`;
    },
  );
}

/**
 * "Retry failed images": every image a finished import could not copy is fetched again (in parallel, six
 * at most per host, the same timeout and cap); each one copied now replaces its placeholder in its post,
 * and the report and the job's counts say what is still missing.
 */
export async function retryFailedImages(
  k: Kernel,
  job: typeof schema.importJobs.$inferSelect,
): Promise<{ retried: number; copied: number; stillFailed: number }> {
  const { db, purge } = k;
  const it = schema.importItems;
  const items = await db
    .select()
    .from(it)
    .where(and(eq(it.jobId, job.id), eq(it.kind, "post"), eq(it.state, "done"), like(it.note, '%"failedImages"%')));
  const copier = createImageCopier(k, { id: job.id, ownerId: job.ownerId ?? "" });
  let retried = 0;
  let copied = 0;
  let stillFailed = 0;
  for (const item of items) {
    if (retried >= RETRY_IMAGES_PER_REQUEST || !item.blogId) break;
    const note = JSON.parse(item.note) as { failedImages?: { url: string; reason: string }[] } & Record<
      string,
      unknown
    >;
    const post = JSON.parse(item.payload) as StagedPost;
    const failed = note.failedImages ?? [];
    const sources = failed.map((f) => (post.archive[`archive:${f.url}`] ? `archive:${f.url}` : f.url));
    retried += sources.length;
    const results = await copier.retryAll(sources, post);
    const copies = new Map<string, string>();
    const left: { url: string; reason: string }[] = [];
    results.forEach((r, i) => {
      if ("path" in r) copies.set(sources[i]!, r.path);
      else left.push({ url: failed[i]!.url, reason: r.reason });
    });
    const blog = copies.size ? await db.query.blogs.findFirst({ where: eq(schema.blogs.id, item.blogId) }) : undefined;
    let placed = 0;
    if (blog) {
      // The images whose copy now shows somewhere: in the text, or as the cover.
      const used = new Set<string>();
      const text = withRetriedImages(blog.blogDetails, post.markdown, copies, used);
      // The cover as the import chose it: the post's own, else the first image of its text.
      const first = text === null ? undefined : imageSources(text)[0];
      const cover =
        blog.image !== PLACEHOLDER_URL
          ? undefined
          : post.cover
            ? copies.get(post.cover)
            : first !== PLACEHOLDER_URL
              ? first
              : undefined;
      if (cover && post.cover && cover === copies.get(post.cover)) used.add(post.cover);
      // The share image the import left empty, now copied (one the writer has set since stays theirs).
      const social = post.socialImage && !blog.socialImage ? copies.get(post.socialImage) : undefined;
      if (social && post.socialImage) used.add(post.socialImage);
      // A copy that shows nowhere: the writer changed this post's images (or its cover) since, and nothing is
      // replaced behind their back. It stays failed, and is not counted as placed.
      for (const [src] of copies)
        if (!used.has(src)) left.push({ url: src.replace(/^archive:/, ""), reason: "the post was edited since" });
      placed = used.size;
      if (placed > 0) {
        await db
          .update(schema.blogs)
          .set({
            blogDetails: text ?? blog.blogDetails,
            ...(cover ? { image: cover } : {}),
            ...(social ? { socialImage: social } : {}),
            updatedAt: Date.now(),
          })
          .where(eq(schema.blogs.id, blog.id));
        await purge({ kind: "blog.changed", blogId: blog.id });
      }
    }
    copied += placed;
    stillFailed += left.length;
    const { failedImages: _old, ...rest } = note;
    await db.batch([
      db
        .update(it)
        .set({ note: JSON.stringify(left.length ? { ...rest, failedImages: left } : rest) })
        .where(and(eq(it.jobId, job.id), eq(it.seq, item.seq))),
      db
        .update(schema.importJobs)
        .set({
          imagesDone: sql`${schema.importJobs.imagesDone} + ${placed}`,
          imagesFailed: sql`max(0, ${schema.importJobs.imagesFailed} - ${placed})`,
        })
        .where(eq(schema.importJobs.id, job.id)),
    ]);
  }
  return { retried, copied, stillFailed };
}
