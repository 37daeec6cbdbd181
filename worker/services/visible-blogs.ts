import { and, desc, eq, lte, or, type SQL } from "drizzle-orm";
import { schema } from "#worker/db.ts";

/**
 * The one order of every list of blogs: newest first by the writer's date, then by creation, then by
 * id, so posts with the same date keep a stable order across pages. Every list's index ends in these
 * three columns (blogs_newest_idx and its per-writer and per-category twins), so a page is a range
 * read on an index, never a sort.
 */
export const newestFirst = [desc(schema.blogs.dateTime), desc(schema.blogs.createdAt), desc(schema.blogs.id)] as const;

export const BLOG_STATUSES = ["draft", "scheduled", "published"] as const;
export type BlogStatus = (typeof BLOG_STATUSES)[number];

/**
 * The one rule of who may read a blog in public: published, or scheduled for a time that has come.
 * Every public page, feed, sitemap, search and API read of blogs filters with this condition, so a
 * draft or a post scheduled for later can never leak. (A scheduled post is visible the instant its
 * time comes, whether or not the publishing sweep has flipped its status yet.)
 */
export function visibleBlog(now: number = Date.now()): SQL {
  const b = schema.blogs;
  return or(eq(b.status, "published"), and(eq(b.status, "scheduled"), lte(b.publishAt, now)))!;
}

/** The visible-blog condition together with any others (undefined ones are ignored). */
export function visibleBlogsWhere(...conditions: (SQL | undefined)[]): SQL {
  return and(visibleBlog(), ...conditions)!;
}
