import { CATEGORIES } from "#worker/services/categories.ts";
import { markdownImages } from "#worker/services/import/html.ts";
import { parseExport } from "#worker/services/import/parse.ts";
import type { ImportedPost, ParsedImport } from "#worker/services/import/types.ts";
import { logError } from "#worker/log.ts";
import { DomainError, ValidationError } from "#worker/services/shared/errors.ts";

const MAX_LISTED = 200;

export interface ImportSummary {
  posts: number;
  drafts: number;
  comments: number;
  images: number;
  subscribers: number;
  /** Source categories that name none of the ten: the preview asks where each goes. */
  unmatched: string[];
  /** The source's tags (and categories): they become the posts' tags as spelled there, five at most a post. */
  tags: string[];
  /** Pages (this site has posts only): counted as skipped, each kept in the ledger. */
  pages: number;
  /** This site's own export: its edited pages (/privacy, /terms), restored by an admin's import. */
  sitePages?: number;
  /** This site's own export: follows (follower and writer by email), restored by an admin's import. */
  follows?: number;
  skipped: { title: string; reason: string }[];
  /** Posts read with a problem (a converter that failed on them), and what was done instead. */
  problems?: { title: string; warning: string }[];
}

/**
 * The export read, or refused with a 400: a parser or converter that throws on what a file holds (rather
 * than refusing it with its own message) is still the file's fault, never a 500.
 */
export function readExport(bytes: Uint8Array): ParsedImport {
  try {
    return parseExport(bytes);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    logError("import: a file no parser could read", err);
    const text = "This file could not be read as an export; nothing was imported.";
    throw new ValidationError({ file: text }, text, "import-unreadable");
  }
}

/**
 * A post's images as the import copies them: its cover, the images of its text and a share image from the
 * archive, each once (a share image elsewhere is an address the post keeps as it was).
 */
export const postImages = (p: Pick<ImportedPost, "cover" | "markdown" | "socialImage">) => [
  ...new Set([
    ...(p.cover ? [p.cover] : []),
    ...markdownImages(p.markdown),
    ...(p.socialImage?.startsWith("archive:") ? [p.socialImage] : []),
  ]),
];

/**
 * What the preview shows. Images are counted as the import copies them, post by post (an image two posts
 * show is copied for each), so the preview's count is the report's copied plus failed.
 */
export function summarize(
  parsed: ParsedImport,
  subscribers: number,
  pages: number,
  sitePages: number,
  follows = 0,
): ImportSummary {
  const unmatched = new Map<string, number>();
  const tags = new Set<string>();
  const lower = CATEGORIES.map((c) => c.toLowerCase());
  for (const p of parsed.posts) {
    if (!p.categories.some((c) => lower.includes(c.toLowerCase())))
      for (const c of p.categories) unmatched.set(c, (unmatched.get(c) ?? 0) + 1);
    for (const t of p.tags) if (!lower.includes(t.toLowerCase())) tags.add(t);
  }
  return {
    posts: parsed.posts.length,
    drafts: parsed.posts.filter((p) => p.status !== "published").length,
    comments: parsed.posts.reduce((n, p) => n + p.comments.length, 0),
    images: parsed.posts.reduce((n, p) => n + postImages(p).length, 0),
    subscribers,
    unmatched: [...unmatched.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 50)
      .map(([name]) => name),
    tags: [...tags].slice(0, MAX_LISTED),
    pages,
    sitePages,
    ...(follows ? { follows } : {}),
    skipped: parsed.skipped.slice(0, MAX_LISTED).map(({ title, reason }) => ({ title, reason })),
    problems: parsed.posts
      .filter((p) => p.warnings?.length)
      .slice(0, MAX_LISTED)
      .map((p) => ({ title: p.title, warning: p.warnings!.join("; ") })),
  };
}
