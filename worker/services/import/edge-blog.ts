import { textOf } from "#worker/services/import/archive.ts";
import { assertJsonDepth } from "#worker/services/import/nesting.ts";
import { emptyParsed, type ImportedComment, type ParsedImport } from "#worker/services/import/types.ts";
import { archiveRef } from "#worker/services/import/zip-images.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { NEWSLETTER_CONTENT_CHOICES, type NewsletterContentChoice } from "#worker/services/blogs/model.ts";
import { POST_VISIBILITIES, type PostVisibility } from "#worker/services/blogs/gate.ts";

/** The marker file of this site's whole-site export (worker/services/export/site.ts). */
export const SITE_EXPORT_MARKER = "edge-blog.json";

/** One front matter block of `key: <JSON value>` lines, as the exports write it. */
export function frontMatter(text: string): { meta: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, unknown> = {};
  for (const line of m[1]!.split("\n")) {
    const at = line.indexOf(":");
    if (at < 1) continue;
    const raw = line.slice(at + 1).trim();
    try {
      meta[line.slice(0, at).trim()] = JSON.parse(raw);
    } catch {
      meta[line.slice(0, at).trim()] = raw;
    }
  }
  return { meta, body: text.slice(m[0].length) };
}

const str = (v: unknown) => (typeof v === "string" ? v : "");
const list = (files: Map<string, Uint8Array>, name: string): Record<string, unknown>[] => {
  const bytes = files.get(name);
  if (!bytes) return [];
  const text = textOf(bytes);
  assertJsonDepth(text);
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  } catch {
    return [];
  }
};

/**
 * This site's own export: importing it into an empty site gives back its posts (tags and SEO fields
 * too), images, threaded comments, edited pages and follows.
 */
export function parseEdgeBlog(files: Map<string, Uint8Array>): ParsedImport {
  let site = "edge-blog";
  try {
    site = str((JSON.parse(textOf(files.get(SITE_EXPORT_MARKER)!)) as Record<string, unknown>).site) || site;
  } catch {
    // the marker's content is a courtesy; its presence is what names the format
  }
  const out = emptyParsed("edge-blog", site);
  const comments = new Map<string, ImportedComment[]>();
  for (const c of list(files, "comments.json")) {
    const entry = comments.get(str(c.blogId)) ?? [];
    entry.push({
      authorName: str(c.authorName) || "Anonymous",
      authorEmail: str(c.authorEmail).toLowerCase() || null,
      date: str(c.createdAt) || new Date().toISOString(),
      body: str(c.body),
      sourceId: str(c._id) || undefined,
      parentSourceId: str(c.parentId) || null,
    });
    comments.set(str(c.blogId), entry);
  }
  for (const name of [...files.keys()].filter((n) => /^posts\/[^/]+\.md$/.test(n)).sort()) {
    const { meta, body } = frontMatter(textOf(files.get(name)!));
    const id = str(meta.id) || name;
    const markdown = body
      .trim()
      .replace(/!\[([^\]]*)\]\((\.\.\/images\/[^)\s]+)\)/g, (all, alt: string, src: string) => {
        const ref = archiveRef(src, name, files, out);
        return ref ? `![${alt}](${ref})` : all;
      });
    const cover = str(meta.cover);
    const social = str(meta.social_image);
    const status = str(meta.status);
    out.posts.push({
      sourceKey: `edge:${site}:${id}`,
      ...(isIdShaped(meta.id) ? { id: meta.id } : {}),
      title: str(meta.title) || "(untitled)",
      markdown,
      description: str(meta.description),
      status: status === "draft" || status === "scheduled" ? status : "published",
      date: str(meta.date) || new Date().toISOString(),
      categories: str(meta.category) ? [str(meta.category)] : [],
      tags: str(meta.tags) ? str(meta.tags).split(",") : [],
      author: str(meta.author_email)
        ? { name: str(meta.author) || str(meta.author_email), email: str(meta.author_email) }
        : null,
      cover: cover ? (archiveRef(cover, name, files, out) ?? cover) : null,
      comments: comments.get(id) ?? [],
      metaDescription: str(meta.meta_description),
      seoTitle: str(meta.seo_title),
      newsletterContent: NEWSLETTER_CONTENT_CHOICES.includes(meta.newsletter_content as NewsletterContentChoice)
        ? (meta.newsletter_content as NewsletterContentChoice)
        : "",
      socialImage: social ? (archiveRef(social, name, files, out) ?? social) : null,
      visibility: POST_VISIBILITIES.includes(meta.visibility as PostVisibility)
        ? (meta.visibility as PostVisibility)
        : "public",
    });
  }
  for (const f of list(files, "follows.json")) {
    const follower = str(f.follower).trim().toLowerCase();
    const writer = str(f.writer).trim().toLowerCase();
    if (follower && writer && follower !== writer)
      out.follows.push({ follower, writer, date: str(f.createdAt) || null });
  }
  // The site's pages (/privacy, /terms): only those an admin had edited; the others are the default text.
  for (const name of [...files.keys()].filter((n) => /^pages\/[^/]+\.md$/.test(n)).sort()) {
    const { meta, body } = frontMatter(textOf(files.get(name)!));
    const slug = str(meta.slug) || name.slice("pages/".length, -".md".length);
    if (meta.edited === false || !body.trim()) continue;
    out.sitePages.push({ slug, title: str(meta.title) || slug, body: body.trim() });
  }
  return out;
}
