import { and, desc, eq, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { schema, type Db } from "#worker/db.ts";
import { taggedWith } from "#worker/services/blogs/tags.ts";
import { memberStatus } from "#worker/services/members/model.ts";
import { canEditBlog, type Actor } from "#worker/services/shared/policy.ts";

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

/**
 * The rowids of the posts the rule above keeps from the public (drafts, posts scheduled for later):
 * exactly the complement of `visibleBlog(now)`, as a subquery on the partial index `blogs_hidden_idx`,
 * which holds only unpublished posts. Full-text search excludes these instead of reading every match's
 * row to test the rule (1,000 matches: 1,000 row reads).
 */
export function hiddenBlogRowids(now: number = Date.now()): SQL {
  return sql`(select rowid from blogs indexed by blogs_hidden_idx where status <> 'published' and not (status = 'scheduled' and coalesce(publish_at <= ${now}, 0)))`;
}

/** The visible-blog condition together with any others (undefined ones are ignored). */
export function visibleBlogsWhere(...conditions: (SQL | undefined)[]): SQL {
  return and(visibleBlog(), ...conditions)!;
}

/** A list of blogs whose total is kept by triggers (table blog_counts, migrations 0016 and 0025). */
export type BlogScope =
  | { by: "all" }
  | { by: "author"; key: string }
  | { by: "email"; key: string }
  | { by: "category"; key: string }
  | { by: "tag"; key: string };

const scopeColumn = {
  author: schema.blogs.authorId,
  email: schema.blogs.email,
  category: schema.blogs.category,
} as const;

/** The condition a scope stands for (undefined: every post). A tag's key is its slug. */
export function scopeCondition(scope: BlogScope): SQL | undefined {
  if (scope.by === "all") return undefined;
  return scope.by === "tag" ? taggedWith(scope.key) : eq(scopeColumn[scope.by], scope.key);
}

const keyOf = (scope: BlogScope) => (scope.by === "all" ? "" : scope.key);

/**
 * How many blogs of a scope the visible rule above lets through, as one scalar SQL expression that reads
 * a row or two at any size: the published ones (kept by triggers on every write), plus the scheduled
 * ones whose time has come but that the publisher has not flipped yet, counted live on the partial
 * index of scheduled posts (a trigger cannot see time). Exactly `count(*) where visibleBlog(now)`.
 * `indexed by` holds SQLite to that partial index: left to itself it picks the writer's (or category's)
 * index for `author_id = ?` and walks every post of the writer to find the few scheduled ones
 * (40 to 60 ms for a writer of 100,000 posts; tests/services/query-plans.test.ts).
 */
export function visibleTotal(scope: BlogScope, now: number = Date.now()): SQL<number> {
  return keptVisibleTotal(scope.by, sql`${keyOf(scope)}`, scopeCondition(scope), now);
}

/**
 * visibleTotal for every tag of a list at once (/tags): `slug` is the column of the outer query that holds
 * each row's tag, so the same rule is one correlated expression per row.
 */
export function visibleTagTotal(slug: SQL | SQLiteColumn, now: number = Date.now()): SQL<number> {
  return keptVisibleTotal("tag", sql`${slug}`, taggedWith(sql`${slug}`), now);
}

function keptVisibleTotal(by: BlogScope["by"], key: SQL, condition: SQL | undefined, now: number): SQL<number> {
  return sql<number>`(coalesce((select n from blog_counts where scope = ${by} and key = ${key} and status = 'published'), 0)
    + (select count(*) from blogs indexed by blogs_scheduled_idx where status = 'scheduled' and publish_at <= ${now}${condition ? sql` and ${condition}` : sql``}))`;
}

/**
 * `visibleTotal` for the writer of each row of a list (a correlated scalar): `writerId` names the outer
 * row's id column, written qualified by the caller (`"users"."id"`), since inside a select list Drizzle
 * writes bare column names that the inner `blogs` would capture. The same two index reads per row.
 */
export function visibleTotalOfWriter(writerId: SQL, now: number = Date.now()): SQL<number> {
  return sql<number>`(coalesce((select n from blog_counts where scope = 'author' and key = ${writerId} and status = 'published'), 0)
    + (select count(*) from blogs indexed by blogs_scheduled_idx where status = 'scheduled' and publish_at <= ${now} and blogs.author_id = ${writerId}))`;
}

/** How many blogs of a scope there are, drafts and scheduled ones included (the writer's and admin's tables). */
export function anyStatusTotal(scope: BlogScope): SQL<number> {
  return sql<number>`(select coalesce(sum(n), 0) from blog_counts where scope = ${scope.by} and key = ${keyOf(scope)})`;
}

/**
 * The second half of the one rule (docs/decisions/053): who reads a visible post in full. Its words and the
 * preview live in ./gate.ts (pure, so the editor's form can name the marker without pulling in Drizzle).
 */
export {
  MEMBERS_ONLY_MARKER,
  POST_VISIBILITIES,
  previewOf,
  publicTextOf,
  type PostVisibility,
} from "#worker/services/blogs/gate.ts";

/** Whether this reader reads this post in full (one D1 read for a paid post and a signed-in reader). */
export async function readsInFull(
  db: Db,
  actor: Actor | null,
  row: Pick<typeof schema.blogs.$inferSelect, "visibility" | "authorId">,
  now = Date.now(),
): Promise<boolean> {
  if (row.visibility === "public" || canEditBlog(actor, row)) return true;
  if (!actor) return false;
  if (row.visibility === "members") return true;
  const member = await db.query.members.findFirst({ where: eq(schema.members.userId, actor.id) });
  return memberStatus(member, now) !== "free";
}
