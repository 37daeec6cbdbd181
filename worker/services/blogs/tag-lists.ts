import { and, asc, count, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { blogSearchQueries, toSearchPage, type SearchHit } from "#worker/services/blogs/queries.ts";
import { tagFold } from "#worker/services/blogs/slug.ts";
import { tagKey } from "#worker/services/blogs/tags.ts";
import { visibleBlog, visibleTagTotal } from "#worker/services/blogs/visible.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Tags on a page of /tags. */
export const TAGS_PAGE_SIZE = 48;
/** How many of a tag's visible posts are read to find its usual spelling: a sample, the same at any size. */
export const SPELLING_SAMPLE = 100;

/** A tag as /tags and its own page show it. */
export interface TagSummary {
  /** The slug: the tag's identity and URL (worker/services/blogs/slug.ts tagPath). */
  tag: string;
  /** How the tag's visible posts usually spell it ("Web Performance"). */
  name: string;
  /** How many visible posts carry it (the visible-blogs rule). */
  posts: number;
}

/** blog_counts as the outer table of the tag lists (its correlated subqueries read blog_counts too). */
const t = alias(schema.blogCounts, "t");

/**
 * The spelling most of the tag's visible posts use (of up to SPELLING_SAMPLE of them; on a tie the one
 * that sorts first, capitals before small letters: "Web Performance" before "web performance"). Only
 * visible posts vote, so a draft's spelling never shows; a tag stored before spellings were kept shows
 * its slug.
 */
function usualSpelling(slug: SQLiteColumn | string, now: number): SQL<string> {
  const bt = schema.blogTags;
  return sql<string>`(select name from (select coalesce(nullif(${bt.name}, ''), ${bt.tag}) as name from ${bt}
    join ${schema.blogs} on ${schema.blogs.id} = ${bt.blogId}
    where ${bt.tag} = ${slug} and ${visibleBlog(now)} limit ${SPELLING_SAMPLE})
    group by name order by count(*) desc, name limit 1)`;
}

/**
 * The tags at least one visible post carries (the kept totals of scope 'tag', plus a scheduled post
 * whose time has come: visibleTagTotal), one row per tag, in slug order.
 */
function listedTags(now: number, only?: string) {
  const posts = visibleTagTotal(t.key, now);
  return {
    posts,
    where: and(
      eq(t.scope, "tag"),
      only === undefined ? undefined : eq(t.key, only),
      inArray(t.status, ["published", "scheduled"]),
      gt(t.n, 0),
    ),
    having: sql`${posts} > 0`,
  };
}

function summaryQuery(db: Db, slug: string, now: number) {
  const list = listedTags(now, slug);
  return db
    .select({ tag: t.key, name: usualSpelling(t.key, now), posts: list.posts })
    .from(t)
    .where(list.where)
    .groupBy(t.key)
    .having(list.having);
}

const toSummary = (row: { tag: string; name: string | null; posts: number }): TagSummary => ({
  tag: row.tag,
  name: row.name || row.tag,
  posts: Number(row.posts),
});

/**
 * /tags and the tag pages: every tag with visible posts, and one tag with a page of its posts, each in one
 * D1 round trip. Counts follow the one visible-blogs rule (kept by triggers, decision 034), so drafts and
 * posts scheduled for later are never counted, and a tag only they carry is not listed.
 */
export function createTagService(k: Kernel) {
  const { db } = k;
  return {
    /** /tags: the tags with visible posts in slug order, a page at a time (the one pagination helper). */
    async index(input: { page?: unknown; limit?: unknown }, defaultLimit = TAGS_PAGE_SIZE): Promise<Page<TagSummary>> {
      const paging = parsePaging(input, defaultLimit);
      const now = Date.now();
      const list = listedTags(now);
      const [rows, totals] = await db.batch([
        db
          .select({ tag: t.key, name: usualSpelling(t.key, now), posts: list.posts })
          .from(t)
          .where(list.where)
          .groupBy(t.key)
          .having(list.having)
          .orderBy(asc(t.key))
          .limit(paging.limit)
          .offset(paging.offset),
        db
          .select({ total: count() })
          .from(db.select({ tag: t.key }).from(t).where(list.where).groupBy(t.key).having(list.having).as("listed")),
      ]);
      return toPage(rows.map(toSummary), totals[0]?.total ?? 0, paging);
    },

    /** One tag in any spelling ("Web Performance", "café"): its slug, usual spelling and visible posts; null when none. */
    async find(spelling: unknown): Promise<TagSummary | null> {
      const slug = tagKey(spelling);
      if (!slug) return null;
      const [row] = await summaryQuery(db, slug, Date.now());
      return row ? toSummary(row) : null;
    },

    /**
     * The slug of a tag with visible posts that folds like `slug` does (/tags/cafe -> café, as search folds
     * accents), or null. Only asked when no tag has the slug itself: the tags of the same length are read
     * (folding keeps a composed letter one character) and folded here.
     */
    async folded(slug: string): Promise<string | null> {
      const want = tagFold(slug);
      const list = listedTags(Date.now());
      const rows = await db
        .select({ tag: t.key })
        .from(t)
        .where(and(list.where, sql`length(${t.key}) = ${[...want].length}`))
        .groupBy(t.key)
        .having(list.having)
        .orderBy(asc(t.key))
        .limit(500);
      return rows.find((r) => r.tag !== slug && tagFold(r.tag) === want)?.tag ?? null;
    },

    /**
     * /tags/{slug}: the tag (null when no visible post carries it) and a page of its visible posts, newest
     * first (the same search as /allBlogs?tag=), in one round trip.
     */
    async page(
      slug: string,
      input: { page?: unknown },
      defaultLimit: number,
    ): Promise<{ tag: TagSummary | null; posts: Page<SearchHit> }> {
      const { page, limit, queries } = blogSearchQueries(db, { tag: slug, page: input.page }, defaultLimit);
      const [summary, rows, totals] = await db.batch([summaryQuery(db, slug, Date.now()), ...queries]);
      return { tag: summary[0] ? toSummary(summary[0]) : null, posts: toSearchPage(rows, totals, page, limit) };
    },
  };
}

export type TagService = ReturnType<typeof createTagService>;
