import type { NewsletterContentChoice } from "#worker/services/blogs/model.ts";
import type { PostVisibility } from "#worker/services/blogs/gate.ts";

/**
 * The one shape every importer produces (WordPress, Ghost, Medium, Substack, this site's own export):
 * the queue consumer knows nothing of the platforms, only of these records.
 */
export interface ImportedComment {
  authorName: string;
  authorEmail: string | null;
  /** ISO 8601. */
  date: string;
  /** Markdown (converted from the platform's HTML). */
  body: string;
  /** The comment's id in the source, and the id of the comment it replies to: threading survives. */
  sourceId?: string;
  parentSourceId?: string | null;
}

export interface ImportedFollow {
  follower: string;
  writer: string;
  /** ISO 8601, when the follow began (now when unknown). */
  date: string | null;
}

export interface ImportedAuthor {
  name: string;
  email: string | null;
}

export interface ImportedPost {
  /** The origin, kept so a second import of the same file creates nothing twice ("wp:example.com:42"). */
  sourceKey: string;
  title: string;
  /** Markdown; image references still carry their source URLs until the consumer copies them. */
  markdown: string;
  description: string;
  status: "published" | "draft" | "scheduled";
  /** ISO 8601 date and time. */
  date: string;
  /** The source's categories and tags, by name: categories map to the ten, tags are reported. */
  categories: string[];
  tags: string[];
  author: ImportedAuthor | null;
  /**
   * This site's own export: the post's id there, kept by an admin's import (its old links keep working); a post still
   * here under that id is not imported again, so a site's export imported back adds only what is gone.
   */
  id?: string;
  /** The source's own slug (Ghost: links between its posts name it). */
  slug?: string;
  /** The featured image's source URL, or null. */
  cover: string | null;
  comments: ImportedComment[];
  /** The SEO fields (this site's own export): the meta description, the search headline and the share image's source URL. */
  metaDescription?: string;
  seoTitle?: string;
  socialImage?: string | null;
  /** This site's own export: what its newsletter sends of the post ("" is the site's default). */
  newsletterContent?: NewsletterContentChoice;
  /** This site's own export: who reads the post in full (absent: public). */
  visibility?: PostVisibility;
  /** What went wrong with this post while reading it, and what was done instead (shown in the report). */
  warnings?: string[];
}

/** What a parser hands back: the posts, subscribers (Substack) and any archive images, by the URL the posts use. */
export interface ParsedImport {
  platform: "wordpress" | "ghost" | "medium" | "substack" | "edge-blog";
  /** The site the file came from, as its own export names it (part of each source key). */
  site: string;
  /** The source site's address when the export names it (Ghost's __GHOST_URL__ for images). */
  origin?: string;
  posts: ImportedPost[];
  subscribers: string[];
  /** This site's own export: the admin-edited pages (/privacy, /terms) by slug, with their Markdown. */
  sitePages: { slug: string; title: string; body: string }[];
  /** This site's own export: who follows which writer, by email (restored where both accounts exist). */
  follows: ImportedFollow[];
  /** Image bytes found inside the archive, by every path or URL a post may use for them. */
  archiveImages: Map<string, Uint8Array>;
  /**
   * Records left out while reading, and why ("attachment", "trash"). A page (WordPress or Ghost pages,
   * Substack's page rows: this site has posts only) carries its `sourceKey`: it is counted as skipped in
   * the preview and kept in the import's ledger (worker/services/import/service.ts).
   */
  skipped: { title: string; reason: string; sourceKey?: string }[];
  /** Posts whose body nested past the cap (imported as plain text), and the first such refusal. */
  deepPosts?: { count: number; error: Error };
}

export const emptyParsed = (platform: ParsedImport["platform"], site: string): ParsedImport => ({
  platform,
  site,
  posts: [],
  subscribers: [],
  sitePages: [],
  follows: [],
  archiveImages: new Map(),
  skipped: [],
});

/** Why a page is not imported (the same words on every platform). */
export const PAGE_SKIPPED = "a page (this site has posts only)";
