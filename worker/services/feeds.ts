import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { eq } from "drizzle-orm";
import type { Category } from "#worker/services/categories.ts";
import { newestFirst, visibleBlogsWhere } from "#worker/services/visible-blogs.ts";

export const RSS_ITEMS = 20;

export interface FeedItem {
  id: string;
  title: string;
  description: string;
  category: string;
  author: string;
  /** ISO 8601, as the writer set it. */
  published: string;
}

export interface SitemapPost {
  id: string;
  /** ISO 8601: when the post last changed. */
  lastmod: string;
}

/** The data behind /rss.xml and /sitemap.xml: one query each, only the columns they print. */
export function createFeedService(db: Db) {
  return {
    /** The latest visible posts, all of them or one category's (the caller checks the category exists). */
    async latestForRss(category?: Category): Promise<FeedItem[]> {
      const b = schema.blogs;
      return db
        .select({
          id: b.id,
          title: b.title,
          description: b.shortDescription,
          category: b.category,
          author: b.authorName,
          published: b.dateTime,
        })
        .from(b)
        .where(visibleBlogsWhere(category ? eq(b.category, category) : undefined))
        .orderBy(...newestFirst)
        .limit(RSS_ITEMS);
    },

    async postsForSitemap(): Promise<SitemapPost[]> {
      const b = schema.blogs;
      const rows = await db
        .select({ id: b.id, updatedAt: b.updatedAt })
        .from(b)
        .where(visibleBlogsWhere())
        .orderBy(...newestFirst);
      return rows.map((r) => ({ id: r.id, lastmod: new Date(r.updatedAt).toISOString() }));
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
