import { schema } from "#worker/db.ts";
import { asc, eq, inArray } from "drizzle-orm";
import { countQuery, visibleList } from "#worker/services/blogs/lists.ts";
import type { Category } from "#worker/services/categories.ts";
import { newestFirst, visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import { taggedWith } from "#worker/services/blogs/tags.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export const RSS_ITEMS = 20;
/**
 * Posts per sitemap file. The protocol allows 50,000; 1,000 keeps every file near 110 KB (far under the
 * 300 KB any answer of the site may weigh) and as quick to make on a big site as on a small one; the
 * index lists 100 files at 100,000 posts (decision 023).
 */
export const SITEMAP_FILE_URLS = 1_000;

export interface FeedItem {
  id: string;
  title: string;
  /** The writer's custom slug ("" when the link follows the title). */
  slug: string;
  description: string;
  category: string;
  author: string;
  /** ISO 8601, as the writer set it. */
  published: string;
}

export interface SitemapPost {
  id: string;
  /** For the readable link (/blogs/{id}/{slug}): the custom slug, else the title's. */
  title: string;
  slug: string;
  /** ISO 8601: when the post last changed. */
  lastmod: string;
}

/** The data behind /rss.xml and /sitemap.xml: one query each, only the columns they print. */
export function createFeedService(k: Kernel) {
  const { db } = k;
  return {
    /**
     * The latest visible posts, all of them, one category's (the caller checks the category exists) or
     * one tag's (/tags/{tag}/rss.xml: `tag` is its slug).
     */
    async latestForRss(category?: Category, tag?: string): Promise<FeedItem[]> {
      const b = schema.blogs;
      return db
        .select({
          id: b.id,
          title: b.title,
          slug: b.slug,
          description: b.shortDescription,
          category: b.category,
          author: b.authorName,
          published: b.dateTime,
        })
        .from(b)
        .where(visibleBlogsWhere(category ? eq(b.category, category) : undefined, tag ? taggedWith(tag) : undefined))
        .orderBy(...newestFirst)
        .limit(RSS_ITEMS);
    },

    /** How many post files the sitemap index lists (/sitemaps/posts-{n}.xml): one per SITEMAP_FILE_URLS posts. */
    async sitemapFiles(): Promise<number> {
      const [row] = await countQuery(db, visibleList({ by: "all" }));
      return Math.ceil((row?.total ?? 0) / SITEMAP_FILE_URLS);
    },

    /**
     * The posts of sitemap file `file` (1-based), oldest first, so a file's posts stay put as new ones
     * are written (they fill the last file). The page is read through the newest-first index (ids only),
     * then just its rows; a file past the last one is empty.
     */
    async postsForSitemap(file = 1): Promise<SitemapPost[]> {
      const b = schema.blogs;
      const oldestFirst = [asc(b.dateTime), asc(b.createdAt), asc(b.id)] as const;
      const rows = await db
        .select({ id: b.id, title: b.title, slug: b.slug, updatedAt: b.updatedAt })
        .from(b)
        .where(
          inArray(
            b.id,
            db
              .select({ id: b.id })
              .from(b)
              .where(visibleBlogsWhere())
              .orderBy(...oldestFirst)
              .limit(SITEMAP_FILE_URLS)
              .offset((file - 1) * SITEMAP_FILE_URLS),
          ),
        )
        .orderBy(...oldestFirst);
      return rows.map((r) => ({
        id: r.id,
        title: r.title,
        slug: r.slug,
        lastmod: new Date(r.updatedAt).toISOString(),
      }));
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
