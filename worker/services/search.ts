import { escapeHtml } from "#worker/content/escape.ts";
import { and, asc, count, desc, eq, getTableColumns, ne, sql, type SQL } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { MAX_SEARCH_CHARS } from "#worker/services/shared/limits.ts";
import { hiddenBlogRowids, newestFirst, visibleBlogsWhere } from "#worker/services/blogs/visible.ts";

/**
 * The FTS5 index of migrations/0005_fts.sql, described for queries only. It lives here, not in
 * drizzle/schema.ts, because drizzle-kit knows no virtual tables and would try to create a plain one.
 * Triggers on blogs keep it in sync (a members' or paid post's public part only: migration 0034); `npm run
 * search:rebuild` rebuilds it.
 */
export const blogSearch = sqliteTable("blog_search", {
  // Each entry carries its post's rowid (see the migration): the join back to blogs is a direct lookup.
  rowid: integer("rowid").notNull(),
  title: text("title").notNull(),
  shortDescription: text("short_description").notNull(),
  blogDetails: text("blog_details").notNull(),
  category: text("category").notNull(),
  authorName: text("author_name").notNull(),
});

export const MAX_SEARCH_TERMS = 8;
/** Search needs at least two characters a term. */
export const MIN_SEARCH_TERM_CHARS = 2;
export const RELATED_POSTS = 3;
/** Related posts are looked for among this many of the newest posts (by rowid), whatever the site's size. */
export const RELATED_WINDOW = 2_000;
/** ... and scored among the newest this many of those that share a word with its title. */
export const RELATED_CANDIDATES = 200;

/**
 * bm25 weights per column, in the index's order: title, short description, details, category,
 * writer name. A word in the title counts ten times a word in the body.
 */
const RANK = sql`bm25(blog_search, 10.0, 4.0, 1.0, 3.0, 3.0)`;

/**
 * How like a post's title words another post is, from its own row only (no word weights, which bm25
 * reads from every post holding each word): FTS5 marks each shared word, and each mark in the title
 * counts 10, in the short description 4, as the search ranking weighs those columns.
 */
const SIMILARITY = sql.raw(
  "(10 * (length(highlight(blog_search, 0, char(1), '')) - length(blog_search.title)) + " +
    "4 * (length(highlight(blog_search, 1, char(1), '')) - length(blog_search.short_description)))",
);

/** Index entry to post. The FTS table must be the outer loop (CROSS JOIN keeps SQLite from turning it around). */
const sameRowid = sql`${schema.blogs}.rowid = ${blogSearch.rowid}`;

// Markers FTS5 puts around matched words; turned into <mark> only after the text is HTML-escaped.
const OPEN = "\u0001";
const CLOSE = "\u0002";
const SNIPPET_TOKENS = 24;

/**
 * The passage a result card shows: from the details where a searched word is, else from the short
 * description (marked where a word is, or its beginning). The title is highlighted on its own.
 */
const bestPassage = sql.raw(
  `coalesce(nullif(snippet(blog_search, 2, char(1), char(2), '…', ${SNIPPET_TOKENS}), ` +
    `replace(replace(snippet(blog_search, 2, char(1), char(2), '…', ${SNIPPET_TOKENS}), char(1), ''), char(2), '')), ` +
    `snippet(blog_search, 1, char(1), char(2), '…', ${SNIPPET_TOKENS}))`,
);

/** A reader's words: split on white space, at most MAX_SEARCH_TERMS, only those with a letter or digit. */
export function searchTerms(q: unknown): string[] {
  if (typeof q !== "string") return [];
  const terms = q
    .slice(0, MAX_SEARCH_CHARS)
    .split(/\s+/)
    .filter((term) => /[\p{L}\p{N}]/u.test(term))
    // A one-character term (as a prefix, `"a"*`) matches nearly every post: it must be two or more.
    .filter((term) => [...term].length >= MIN_SEARCH_TERM_CHARS);
  return [...new Set(terms)].slice(0, MAX_SEARCH_TERMS);
}

const quote = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * The FTS5 query for what a reader typed, or null when there is nothing to search for. Every term
 * is quoted as a plain phrase, so FTS syntax (AND, NEAR(, *, -, :, quotes) is just text and never an
 * error; all terms must match, and the last one also matches as a prefix (the word being typed).
 */
export function ftsQuery(q: unknown): string | null {
  const terms = searchTerms(q);
  if (!terms.length) return null;
  return terms.map((term, i) => (i === terms.length - 1 ? `${quote(term)}*` : quote(term))).join(" ");
}

/** Any of the words of a text (the related-posts similarity): OR of quoted terms of 3+ characters. */
export function anyWordQuery(text: string): string | null {
  const words = [
    ...new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length >= 3),
    ),
  ].slice(0, 12);
  return words.length ? words.map(quote).join(" OR ") : null;
}

/**
 * HTML for a highlighted text from FTS5: everything the writer wrote is escaped, and only our own
 * markers become <mark>…</mark>, always balanced (a stray marker character in the text is dropped).
 */
export function markedHtml(text: string): string {
  let html = "";
  let open = false;
  for (const char of text) {
    if (char === OPEN) {
      if (!open) html += "<mark>";
      open = true;
    } else if (char === CLOSE) {
      if (open) html += "</mark>";
      open = false;
    } else {
      html += escapeHtml(char);
    }
  }
  return open ? `${html}</mark>` : html;
}

/**
 * A ranked page of matches and its total as two un-sent queries (for a db.batch): only visible
 * blogs, optionally narrowed (a category, a tag), best match first, then the most recently added.
 *
 * At any size: the page's rowids are ranked on the FTS index alone, leaving out the few
 * hidden posts (`hiddenBlogRowids`) instead of reading every match's row to test the visible rule,
 * and only the page's rows are read, highlighted and cut into snippets (before, every one of a
 * thousand matches was). The total counts index entries, never rows. A narrowed search still reads
 * each match's row for the category or tag (and breaks ties newest first by date).
 */
export function rankedSearchQueries(db: Db, match: string, narrowed: SQL | undefined, page: number, limit: number) {
  const matches = sql`${blogSearch} match ${match}`;
  const ranking = { rowid: blogSearch.rowid, score: sql<number>`${RANK}`.as("score") };
  const ranked = (
    narrowed
      ? db
          .select(ranking)
          .from(blogSearch)
          .crossJoin(schema.blogs)
          .where(and(sameRowid, visibleBlogsWhere(matches, narrowed)))
          .orderBy(asc(sql`score`), ...newestFirst)
      : db
          .select(ranking)
          .from(blogSearch)
          .where(and(matches, sql`${blogSearch.rowid} not in ${hiddenBlogRowids()}`))
          .orderBy(asc(sql`score`), desc(blogSearch.rowid))
  )
    .limit(limit)
    .offset((page - 1) * limit)
    .as("ranked");
  const total = narrowed
    ? db
        .select({ total: count() })
        .from(blogSearch)
        .crossJoin(schema.blogs)
        .where(and(sameRowid, visibleBlogsWhere(matches, narrowed)))
    : db
        .select({ total: count() })
        .from(blogSearch)
        .where(and(matches, sql`${blogSearch.rowid} not in ${hiddenBlogRowids()}`));
  return [
    db
      .select({
        blog: schema.blogs,
        titleHtml: sql<string | null>`highlight(blog_search, 0, ${OPEN}, ${CLOSE})`,
        snippetHtml: sql<string | null>`${bestPassage}`,
      })
      .from(ranked)
      .crossJoin(blogSearch)
      .crossJoin(schema.blogs)
      // The ranked order is kept by position: ties were broken inside, by rowid or by date.
      .where(and(sql`${blogSearch.rowid} = ${ranked.rowid}`, sql`${schema.blogs}.rowid = ${ranked.rowid}`, matches))
      .orderBy(asc(ranked.score), ...(narrowed ? newestFirst : [desc(ranked.rowid)])),
    total,
  ] as const;
}

/**
 * Up to three posts to read next: visible, never the post itself; the same category first, then the
 * ones most like it by its title words (shared words, SIMILARITY), then the newest. Up to three un-sent queries (one
 * D1 round trip in a batch), each reading a few rows on an index: the same category's most similar,
 * its newest, and the other categories' most similar; `pickRelated` merges their answers.
 */
export function relatedQueries(db: Db, post: { id: string; title: string; category: string }) {
  const words = anyWordQuery(post.title);
  const others = (...conditions: SQL[]) => visibleBlogsWhere(ne(schema.blogs.id, post.id), ...conditions);
  const inCategory = eq(schema.blogs.category, post.category);
  if (!words) {
    const newest = (condition: SQL) =>
      db
        .select()
        .from(schema.blogs)
        .where(others(condition))
        .orderBy(...newestFirst)
        .limit(RELATED_POSTS);
    return [newest(inCategory), newest(ne(schema.blogs.category, post.category))] as const;
  }
  const similar = db
    .select({ rowid: blogSearch.rowid, score: sql<number>`${SIMILARITY}`.as("score") })
    .from(blogSearch)
    // The newest RELATED_CANDIDATES posts that share a word, among the newest RELATED_WINDOW posts
    // (a rowid range FTS5 walks from its newest end, no sort), scored by the shared words themselves.
    // Not bm25: its word weights read every post holding each word (a word as common as "post" is
    // in all 100,000: 45 ms per list); this costs the same at any size.
    .where(
      sql`${blogSearch} match ${words} and ${blogSearch.rowid} > (select coalesce(max(rowid), 0) from ${schema.blogs}) - ${RELATED_WINDOW}`,
    )
    .orderBy(desc(blogSearch.rowid))
    .limit(RELATED_CANDIDATES)
    .as("similar");
  const similarRowid = sql`${schema.blogs}.rowid = ${similar.rowid}`;
  const mostSimilar = (condition: SQL) =>
    db
      .select(getTableColumns(schema.blogs))
      .from(similar)
      .crossJoin(schema.blogs)
      .where(and(similarRowid, others(condition)))
      .orderBy(desc(similar.score), ...newestFirst)
      .limit(RELATED_POSTS);
  // Three lists, each a few rows read on an index (never every post of a category): the
  // same category's most similar, the same category's newest, the other categories' most similar.
  return [
    mostSimilar(inCategory),
    db
      .select()
      .from(schema.blogs)
      .where(others(inCategory))
      .orderBy(...newestFirst)
      .limit(RELATED_POSTS),
    mostSimilar(ne(schema.blogs.category, post.category)),
  ] as const;
}

/** The lists in order (the same category's posts first, then the others), each post once, three at most. */
export function pickRelated<T extends { id: string }>(...lists: T[][]): T[] {
  const seen = new Set<string>();
  const picked: T[] = [];
  for (const row of lists.flat()) {
    if (picked.length === RELATED_POSTS) break;
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    picked.push(row);
  }
  return picked;
}
