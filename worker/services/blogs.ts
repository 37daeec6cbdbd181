import { and, count, eq, lte, or, sql, type SQL } from "drizzle-orm";
import type { Purge } from "../cache/purge";
import { z } from "zod";
import { CATEGORIES, isCategory } from "./categories";
import type { Db } from "../db";
import { schema } from "../db";
import { findOr404, saveChanges } from "./records";
import { Forbidden, ValidationError } from "./errors";
import { newId } from "./ids";
import { BLOG_STATUSES, newestFirst, visibleBlog, visibleBlogsWhere, type BlogStatus } from "./visible-blogs";
import { canEditBlog, requireAdmin, requireUser, type Actor } from "./policy";
import { MAX_SEARCH_CHARS } from "./limits";
import { LIMITS, emailField, optionalText, optionalUrl, parse, requiredText, requiredUrl } from "./validation";

type BlogRow = typeof schema.blogs.$inferSelect;

/** A blog as the REST contract and the pages see it. */
export interface Blog {
  _id: string;
  title: string;
  short_description: string;
  blog_details: string;
  category: string;
  author_name: string;
  /** Beyond the spec: the writer's user id, for the byline's link to /writers/{id}. */
  author_id: string;
  email: string;
  author_image: string | null;
  date_time: string;
  image: string;
  likes: number;
  /** Beyond the spec: "published", "draft" (its writer and admins only) or "scheduled" (a draft until publish_at). */
  status: BlogStatus;
  /** ISO 8601 time a scheduled post goes public; null otherwise. */
  publish_at: string | null;
}

/** Just enough of a blog to draw its card: the blog lists and the saved lists. */
export type BlogSummary = Pick<Blog, "_id" | "title" | "image" | "category" | "author_name" | "short_description"> &
  Partial<Pick<Blog, "author_id">>;

export function toBlog(row: BlogRow): Blog {
  return {
    _id: row.id,
    title: row.title,
    short_description: row.shortDescription,
    blog_details: row.blogDetails,
    category: row.category,
    author_name: row.authorName,
    author_id: row.authorId,
    email: row.email,
    author_image: row.authorImage,
    date_time: row.dateTime,
    image: row.image,
    likes: row.likes,
    status: row.status,
    publish_at: row.publishAt === null ? null : new Date(row.publishAt).toISOString(),
  };
}

export const LATEST_BLOGS = 6;
export const MAX_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

/** Page and limit from untrusted input: anything odd falls back to the first page. */
export function normalizePage(page: unknown, limit: unknown, defaultLimit: number) {
  const p = Number(page);
  const l = Number(limit);
  return {
    page: Number.isInteger(p) && p >= 1 && p <= 100_000 ? p : 1,
    limit: Number.isInteger(l) && l >= 1 ? Math.min(l, MAX_PAGE_SIZE) : defaultLimit,
  };
}

/** What the all-blogs page filters by; both parts optional. */
export interface BlogFilters {
  q?: unknown;
  category?: unknown;
  page?: unknown;
  limit?: unknown;
}

export const MAX_SEARCH_WORDS = 8;

/** The distinct words of a search box, lower-cased; overlong input is cut rather than refused (it is a search box). */
export function searchWords(q: unknown): string[] {
  if (typeof q !== "string") return [];
  const words = q.slice(0, MAX_SEARCH_CHARS).toLowerCase().split(/\s+/).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}

/** D1 refuses LIKE patterns longer than 50 bytes. */
const MAX_LIKE_PATTERN_BYTES = 50;

/**
 * A LIKE pattern matching `word` literally anywhere: %, _ and the escape character itself lose their
 * meaning. A word too long for D1's pattern limit is cut to its beginning, which still finds it.
 */
export function containsPattern(word: string): string {
  const encoder = new TextEncoder();
  let inner = "";
  let bytes = 2;
  for (const char of word) {
    const piece = /[\\%_]/.test(char) ? `\\${char}` : char;
    const size = encoder.encode(piece).length;
    if (bytes + size > MAX_LIKE_PATTERN_BYTES) break;
    inner += piece;
    bytes += size;
  }
  return `%${inner}%`;
}

/**
 * The page of blogs and its total as two un-sent queries, so a loader can batch them with other reads
 * into one D1 round trip. Every word must appear (AND) in the title, short description or details
 * (OR); LIKE is case-insensitive for ASCII. An unknown category matches nothing: a stale or mistyped
 * shared link shows "no blogs" instead of an error page, and the value only ever reaches D1 as a bound parameter.
 */
export function blogSearchQueries(db: Db, filters: BlogFilters, defaultLimit = 4) {
  const { page, limit } = normalizePage(filters.page, filters.limit, defaultLimit);
  const conditions: SQL[] = [];
  for (const word of searchWords(filters.q)) {
    const pattern = containsPattern(word);
    const matches = [schema.blogs.title, schema.blogs.shortDescription, schema.blogs.blogDetails].map(
      (column) => sql`${column} like ${pattern} escape '\\'`,
    );
    conditions.push(or(...matches)!);
  }
  const hasCategory = filters.category !== undefined && filters.category !== null && filters.category !== "";
  if (hasCategory) conditions.push(isCategory(filters.category) ? eq(schema.blogs.category, filters.category) : sql`0`);
  const where = visibleBlogsWhere(...conditions);
  return {
    page,
    limit,
    queries: [
      db
        .select()
        .from(schema.blogs)
        .where(where)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset((page - 1) * limit),
      db.select({ total: count() }).from(schema.blogs).where(where),
    ] as const,
  };
}

export function toBlogPage(rows: BlogRow[], totals: { total: number }[], page: number, limit: number): Page<Blog> {
  const total = totals[0]?.total ?? 0;
  return { items: rows.map(toBlog), total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}

const blankToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

const categoryField = z.enum(CATEGORIES, {
  error: (issue) =>
    issue.input === undefined ? "Category is required." : `Category must be one of: ${CATEGORIES.join(", ")}.`,
});

const statusField = z.preprocess(
  blankToUndefined,
  z.enum(BLOG_STATUSES, { error: `Status must be one of: ${BLOG_STATUSES.join(", ")}.` }),
);

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/i;

/**
 * A date and time as ISO 8601 in UTC, or null. A datetime-local input sends no zone
 * (2026-11-21T10:30): the server cannot know the writer's zone, so it is read as UTC.
 * Parsed by hand because Date.parse accepts impossible dates (Feb 30) and zone-less forms vary by engine.
 */
export function normalizeDateTime(value: string): string | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Number(`${m[7] ?? ""}000`.slice(0, 3));
  if (year < 1900 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  // Day 0 of the next month is the last day of this one, leap years included.
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  let offsetMinutes = 0;
  const zone = m[8]?.toUpperCase();
  if (zone && zone !== "Z") {
    const [oh, om] = zone.slice(1).split(":").map(Number) as [number, number];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000);
  // toISOString switches to an expanded-year form past 9999, which would not sort with the rest.
  return date.getUTCFullYear() <= 9999 ? date.toISOString() : null;
}

const dateTimeField = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? "Date and time is required." : "Date and time must be text.",
  })
  .trim()
  .min(1, { error: "Date and time is required." })
  .max(40, { error: "Date and time must be a date and time like 2026-11-21T10:30." })
  .transform((value, ctx) => {
    const iso = normalizeDateTime(value);
    if (!iso) {
      ctx.addIssue({ code: "custom", message: "Date and time must be a date and time like 2026-11-21T10:30." });
      return z.NEVER;
    }
    return iso;
  });

export const SCHEDULE_IN_PAST = "To schedule a post, set its date and time in the future.";

/**
 * Who may read a post after this save: published now, a draft, or scheduled for its own date and time
 * (which must still be ahead).
 */
function publication(
  status: BlogStatus,
  dateTime: string,
  now = Date.now(),
): { status: BlogStatus; publishAt: number | null } {
  if (status !== "scheduled") return { status, publishAt: null };
  const at = Date.parse(dateTime);
  if (!(at > now)) throw new ValidationError({ date_time: SCHEDULE_IN_PAST }, SCHEDULE_IN_PAST, "schedule-in-past");
  return { status, publishAt: at };
}

/**
 * What a writer sends. Author name, email, picture and likes are not here on purpose: they come
 * from the session (and new blogs start at 0 likes), so whatever the form says about them is dropped.
 */
export const newBlogInput = z.object({
  title: requiredText("Title", LIMITS.title),
  short_description: requiredText("Short description", LIMITS.shortDescription),
  blog_details: requiredText("Blog details", LIMITS.blogDetails),
  category: z.preprocess(blankToUndefined, categoryField),
  date_time: dateTimeField,
  image: requiredUrl("Image"),
  status: statusField.optional(),
});

/** Updates: every field optional, and an empty one keeps the stored value (spec section 5). */
export const blogChangesInput = z.object({
  title: optionalText("Title", LIMITS.title),
  short_description: optionalText("Short description", LIMITS.shortDescription),
  blog_details: optionalText("Blog details", LIMITS.blogDetails),
  category: z.preprocess(blankToUndefined, categoryField.optional()),
  date_time: z.preprocess(blankToUndefined, dateTimeField.optional()),
  image: optionalUrl("Image"),
  status: statusField.optional(),
});

const byEmailInput = z.object({ email: emailField() });

/** What `actor` may read: every visible post, plus their own drafts; an admin reads every post. */
export function readableBy(actor: Actor | null): SQL | undefined {
  if (!actor) return visibleBlog();
  if (actor.role === "admin") return undefined;
  return or(visibleBlog(), eq(schema.blogs.authorId, actor.id));
}

export function createBlogService(db: Db, purge: Purge) {
  return {
    async latest(limit = LATEST_BLOGS): Promise<Blog[]> {
      const rows = await db
        .select()
        .from(schema.blogs)
        .where(visibleBlog())
        .orderBy(...newestFirst)
        .limit(limit);
      return rows.map(toBlog);
    },

    async all(): Promise<Blog[]> {
      const rows = await db
        .select()
        .from(schema.blogs)
        .where(visibleBlog())
        .orderBy(...newestFirst);
      return rows.map(toBlog);
    },

    /** One page of blogs and the total, in a single D1 round trip (no filters: every blog). */
    async page(input: { page?: unknown; limit?: unknown }, defaultLimit = 4): Promise<Page<Blog>> {
      return search({ page: input.page, limit: input.limit }, defaultLimit);
    },

    search,

    /** A blog anyone may read; its writer (and an admin) also reads it as a draft or scheduled post. */
    async byId(id: string, actor: Actor | null = null): Promise<Blog> {
      return toBlog(await findRow(id, readableBy(actor)));
    },

    /** An author's blogs, newest first (public: the profile page lists them). */
    async byAuthorEmail(input: { email?: unknown }): Promise<Blog[]> {
      const { email } = parse(byEmailInput, input);
      const rows = await db
        .select()
        .from(schema.blogs)
        .where(visibleBlogsWhere(eq(schema.blogs.email, email)))
        .orderBy(...newestFirst);
      return rows.map(toBlog);
    },

    /** The signed-in person's own blogs, newest first (the dashboard's Manage Blogs table). */
    async own(actor: Actor | null): Promise<Blog[]> {
      const user = requireUser(actor);
      const rows = await db
        .select()
        .from(schema.blogs)
        .where(eq(schema.blogs.authorId, user.id))
        .orderBy(...newestFirst);
      return rows.map(toBlog);
    },

    /** One page of the signed-in person's own blogs and their total, in a single D1 round trip (My Blogs). */
    async ownPage(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown },
      defaultLimit = 3,
    ): Promise<Page<Blog>> {
      const user = requireUser(actor);
      const { page, limit } = normalizePage(input.page, input.limit, defaultLimit);
      const mine = eq(schema.blogs.authorId, user.id);
      const [rows, totals] = await db.batch([
        db
          .select()
          .from(schema.blogs)
          .where(mine)
          .orderBy(...newestFirst)
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ total: count() }).from(schema.blogs).where(mine),
      ]);
      return toBlogPage(rows, totals, page, limit);
    },

    /** A blog the actor may edit (its author or an admin): the edit form's preload, and the check before an upload. */
    async editable(actor: Actor | null, id: string): Promise<Blog> {
      const user = requireUser(actor);
      const row = await findRow(id);
      if (!canEditBlog(user, row)) throw new Forbidden("Only the author or an admin can edit this blog.");
      return toBlog(row);
    },

    async create(actor: Actor | null, input: unknown): Promise<{ insertedId: string }> {
      const user = requireUser(actor);
      const data = parse(newBlogInput, input);
      const id = newId();
      const { status, publishAt } = publication(data.status ?? "published", data.date_time);
      await db.insert(schema.blogs).values({
        status,
        publishAt,
        id,
        authorId: user.id,
        title: data.title,
        shortDescription: data.short_description,
        blogDetails: data.blog_details,
        category: data.category,
        authorName: user.name,
        email: user.email.toLowerCase(),
        authorImage: user.photoURL,
        dateTime: data.date_time,
        image: data.image,
        likes: 0,
      });
      await purge({ kind: "blog.created" });
      return { insertedId: id };
    },

    /**
     * The scheduling sweep (a cron every minute): scheduled posts whose time has come become published,
     * and the cached pages that list them are purged. (The visible-blogs rule shows them from their time
     * on anyway; the sweep makes the status true and the cache fresh.)
     */
    async publishDue(now = Date.now()): Promise<number> {
      const due = await db
        .update(schema.blogs)
        .set({ status: "published", updatedAt: now })
        .where(and(eq(schema.blogs.status, "scheduled"), lte(schema.blogs.publishAt, now)))
        .returning({ id: schema.blogs.id });
      for (const { id } of due) await purge({ kind: "blog.changed", blogId: id });
      return due.length;
    },

    /** The own-blog edit (PUT /blog/{id}): the author or an admin. */
    async update(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      const user = requireUser(actor);
      const row = await findRow(id);
      if (!canEditBlog(user, row)) throw new Forbidden("Only the author or an admin can edit this blog.");
      return applyChanges(row, input);
    },

    /** The admin edit (PUT /blogs/{id}). */
    async adminUpdate(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      requireAdmin(actor);
      return applyChanges(await findRow(id), input);
    },

    async remove(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      const row = await findRow(id);
      if (!canEditBlog(user, row)) throw new Forbidden("Only the author or an admin can delete this blog.");
      const deleted = await db
        .delete(schema.blogs)
        .where(eq(schema.blogs.id, row.id))
        .returning({ id: schema.blogs.id });
      await purge({ kind: "blog.changed", blogId: row.id });
      return { deletedCount: deleted.length };
    },
  };

  /** Search and category filter with pagination: the page and the total in a single D1 round trip. */
  async function search(filters: BlogFilters, defaultLimit = 4): Promise<Page<Blog>> {
    const { page, limit, queries } = blogSearchQueries(db, filters, defaultLimit);
    const [rows, totals] = await db.batch(queries);
    return toBlogPage(rows, totals, page, limit);
  }

  function findRow(id: string, condition?: SQL): Promise<BlogRow> {
    return findOr404(id, "Blog not found.", (id) =>
      db.query.blogs.findFirst({ where: and(eq(schema.blogs.id, id), condition) }),
    );
  }

  /** Writes only the fields that differ, so "no change" is answered without touching D1. */
  async function applyChanges(row: BlogRow, input: unknown): Promise<{ modifiedCount: number }> {
    const data = parse(blogChangesInput, input);
    const wanted: Partial<BlogRow> = {
      title: data.title,
      shortDescription: data.short_description,
      blogDetails: data.blog_details,
      category: data.category,
      dateTime: data.date_time,
      image: data.image,
      ...(data.status ? publication(data.status, data.date_time ?? row.dateTime) : {}),
    };
    const result = await saveChanges(db, schema.blogs, row, wanted);
    if (result.modifiedCount) await purge({ kind: "blog.changed", blogId: row.id });
    return result;
  }
}

export type BlogService = ReturnType<typeof createBlogService>;
