import { and, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { isCategory } from "#worker/services/categories.ts";
import { ftsQuery, markedHtml, rankedSearchQueries } from "#worker/services/search.ts";
import { characterMatch, needsCharacterSearch } from "#worker/services/search-scripts.ts";
import { countQuery, filteredList, pageIdsQuery, visibleList, type BlogList } from "#worker/services/blogs/lists.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { newestFirst, visibleBlog, visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import { toBlog, type Blog, type BlogRow } from "#worker/services/blogs/model.ts";
import { NOTHING, tagInQuery, tagKey, taggedWith } from "#worker/services/blogs/tags.ts";

/** What the all-blogs page filters by; both parts optional. */
export interface BlogFilters {
  q?: unknown;
  category?: unknown;
  /** One tag in any spelling: `?tag=`, or `#tag` typed in `q`. */
  tag?: unknown;
  page?: unknown;
  limit?: unknown;
}

/** A search result: the blog, and when words were searched, its title and best passage as safe HTML with <mark>s. */
export type SearchHit = Blog & { highlight?: { title: string; snippet: string } };

/** A page that also says how to continue: the cursor after its last row, or null on the last page. */
export type CursorPage<T> = Page<T> & { next: string | null };

/**
 * The admin's blog search: words match the title or the writer's name on the full-text index
 * (drafts included: the index has every post); text with an @ is an email prefix, on the email index.
 */
export function adminBlogFilter(q: unknown): SQL | undefined {
  if (typeof q !== "string" || q.trim() === "") return undefined;
  const text = q.trim().slice(0, 200).toLowerCase();
  if (text.includes("@")) return and(gte(schema.blogs.email, text), lt(schema.blogs.email, `${text}\uffff`));
  const match = ftsQuery(text);
  if (!match) return sql`0`;
  return sql`${schema.blogs}.rowid in (select rowid from blog_search where blog_search match ${`{title author_name} : (${match})`})`;
}

/** The read rule: what `actor` may read is every visible post, plus their own drafts; an admin reads every post. */
export function readableBy(actor: Actor | null): SQL | undefined {
  if (!actor) return visibleBlog();
  if (actor.role === "admin") return undefined;
  return or(visibleBlog(), eq(schema.blogs.authorId, actor.id));
}

/**
 * The page of blogs and its total as two un-sent queries, so a loader can batch them with other reads
 * into one D1 round trip; `toSearchPage` reads their answer. With words, it is a full-text search
 * (worker/services/search.ts: ranked, prefix, accent-folded, highlighted); without, the newest first.
 * An unknown category matches nothing: a stale or mistyped shared link shows "no blogs" instead of
 * an error page, and the value only ever reaches D1 as a bound parameter.
 */
export function blogSearchQueries(db: Db, filters: BlogFilters, defaultLimit = 4) {
  const { page, limit, offset } = parsePaging(filters, defaultLimit);
  // "#edge cache" in the search box: the tag edge, and the words "cache".
  const typedTag = tagInQuery(filters.q);
  const tagValue = filters.tag !== undefined && filters.tag !== null && filters.tag !== "" ? filters.tag : typedTag.tag;
  const q = typedTag.q;
  // Any spelling of a tag finds it (?tag=Web%20Performance is the tag web-performance).
  const slug = tagValue === undefined ? undefined : tagKey(tagValue);
  const tag = slug === undefined ? undefined : slug ? taggedWith(slug) : NOTHING;
  const hasCategory = filters.category !== undefined && filters.category !== null && filters.category !== "";
  const category = hasCategory
    ? isCategory(filters.category)
      ? eq(schema.blogs.category, filters.category)
      : sql`0`
    : undefined;
  // A letter of a script other than Latin: the character index (search-scripts.ts), newest first.
  const chars = needsCharacterSearch(q) ? characterMatch(q) : null;
  const match = chars ? null : ftsQuery(q);
  const narrowed = tag && category ? and(category, tag) : (tag ?? category);
  if (match) return { page, limit, queries: rankedSearchQueries(db, match, narrowed, page, limit) };
  // Typed text with no word in it (only punctuation), or an unknown category, finds nothing.
  const typed = typeof q === "string" && q.trim() !== "";
  const list: BlogList =
    (typed && !chars) || (hasCategory && !isCategory(filters.category))
      ? { where: sql`0`, total: sql<number>`0`, kept: false }
      : chars
        ? filteredList(visibleBlogsWhere(chars, narrowed))
        : tag
          ? // A tag's posts: no kept total, counted on blog_tags' key (decision 033).
            filteredList(visibleBlogsWhere(category, tag))
          : visibleList(hasCategory ? { by: "category", key: String(filters.category) } : { by: "all" });
  return {
    page,
    limit,
    queries: [
      db
        .select({
          blog: schema.blogs,
          titleHtml: sql<string | null>`null`,
          snippetHtml: sql<string | null>`null`,
        })
        .from(schema.blogs)
        .where(inArray(schema.blogs.id, pageIdsQuery(db, list, limit, offset)))
        .orderBy(...newestFirst),
      countQuery(db, list),
    ] as const,
  };
}

type HitRow = { blog: BlogRow; titleHtml: string | null; snippetHtml: string | null };

/** A page of search results from blogSearchQueries' answer. */
export function toSearchPage(rows: HitRow[], totals: { total: number }[], page: number, limit: number) {
  const highlights = rows.map((r) =>
    r.titleHtml === null || r.snippetHtml === null
      ? undefined
      : { title: markedHtml(r.titleHtml), snippet: markedHtml(r.snippetHtml) },
  );
  return toBlogPage(
    rows.map((r) => r.blog),
    totals,
    page,
    limit,
    highlights,
  );
}

export function toBlogPage(
  rows: BlogRow[],
  totals: { total: number }[],
  page: number,
  limit: number,
  highlights?: SearchHit["highlight"][],
): Page<SearchHit> {
  // A gated post's matched text may lie past its preview: its hit shows no snippet.
  const items = rows.map((row, i) =>
    highlights?.[i] && row.visibility === "public" ? { ...toBlog(row), highlight: highlights[i] } : toBlog(row),
  );
  return toPage(items, totals[0]?.total ?? 0, { page, limit });
}
