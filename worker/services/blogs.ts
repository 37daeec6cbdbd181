import { and, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Purge } from "../cache/purge";
import { imageUrlsIn, postImageUrls, type ReleaseImages } from "./image-cleanup";
import { z } from "zod";
import { CATEGORIES, isCategory } from "./categories";
import type { Db } from "../db";
import { schema } from "../db";
import { changedFields, findOr404 } from "./records";
import { countQuery, cursorOf, cursorPageQuery, newestPageQuery, pageIdsQuery } from "./blog-lists";
import { parsePaging, toPage, type Page, type Paging } from "./shared/pagination";
import { Forbidden, ValidationError } from "./errors";
import { newId } from "./ids";
import { BLOG_STATUSES, newestFirst, visibleBlog, visibleBlogsWhere, type BlogStatus } from "./visible-blogs";
import { canEditBlog, requireAdmin, requireUser, type Actor } from "./policy";
import { ftsQuery, markedHtml, rankedSearchQueries } from "./search";
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
  /** Beyond the spec: false when the writer ticked "Don't email this post" (issue 21). */
  email_subscribers: boolean;
}

/** Just enough of a blog to draw its card: the blog lists and the saved lists. */
export type BlogSummary = Pick<Blog, "_id" | "title" | "image" | "category" | "author_name" | "short_description"> &
  Partial<Pick<Blog, "status" | "publish_at" | "author_id">>;

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
    email_subscribers: row.emailSubscribers,
  };
}

/** An earlier version of a post, kept when a save replaced it. */
export interface BlogRevision {
  _id: string;
  blog_id: string;
  title: string;
  short_description: string;
  blog_details: string;
  category: string;
  image: string;
  /** Who made the save that replaced this version, and when (ISO 8601). */
  saved_by_name: string;
  saved_at: string;
}

type RevisionRow = typeof schema.blogRevisions.$inferSelect;

function toRevision(row: RevisionRow): BlogRevision {
  return {
    _id: row.id,
    blog_id: row.blogId,
    title: row.title,
    short_description: row.shortDescription,
    blog_details: row.blogDetails,
    category: row.category,
    image: row.image,
    saved_by_name: row.savedByName,
    saved_at: new Date(row.createdAt).toISOString(),
  };
}

/** The fields a revision keeps: a save that changes none of them (a status change alone) keeps no revision. */
const REVISED_FIELDS = ["title", "shortDescription", "blogDetails", "category", "image"] as const;

export const LATEST_BLOGS = 6;
/** The most scheduled posts one run of the minute cron publishes. */
export const PUBLISH_BATCH = 100;
/** GET /api/blogs without paging answers this many, newest first (the spec's client reads the first page). */
export const API_PAGE_SIZE = 20;
export { MAX_PAGE_SIZE, type Page } from "./shared/pagination";

/** What the all-blogs page filters by; both parts optional. */
export interface BlogFilters {
  q?: unknown;
  category?: unknown;
  page?: unknown;
  limit?: unknown;
}

/** A search result: the blog, and when words were searched, its title and best passage as safe HTML with <mark>s. */
export type SearchHit = Blog & { highlight?: { title: string; snippet: string } };

/**
 * The page of blogs and its total as two un-sent queries, so a loader can batch them with other reads
 * into one D1 round trip; `toSearchPage` reads their answer. With words, it is a full-text search
 * (worker/services/search.ts: ranked, prefix, accent-folded, highlighted); without, the newest first.
 * An unknown category matches nothing: a stale or mistyped shared link shows "no blogs" instead of
 * an error page, and the value only ever reaches D1 as a bound parameter.
 */
export function blogSearchQueries(db: Db, filters: BlogFilters, defaultLimit = 4) {
  const { page, limit, offset } = parsePaging(filters, defaultLimit);
  const hasCategory = filters.category !== undefined && filters.category !== null && filters.category !== "";
  const category = hasCategory
    ? isCategory(filters.category)
      ? eq(schema.blogs.category, filters.category)
      : sql`0`
    : undefined;
  const match = ftsQuery(filters.q);
  if (match) return { page, limit, queries: rankedSearchQueries(db, match, category, page, limit) };
  // Typed text with no word in it (only punctuation) finds nothing, rather than everything.
  const typed = typeof filters.q === "string" && filters.q.trim() !== "";
  const where = visibleBlogsWhere(category, typed ? sql`0` : undefined);
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
        .where(inArray(schema.blogs.id, pageIdsQuery(db, where, limit, offset)))
        .orderBy(...newestFirst),
      countQuery(db, where),
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
  const total = totals[0]?.total ?? 0;
  const items = rows.map((row, i) => (highlights?.[i] ? { ...toBlog(row), highlight: highlights[i] } : toBlog(row)));
  return toPage(items, total, { page, limit });
}

const blankToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

const categoryField = z.enum(CATEGORIES, {
  error: (issue) =>
    issue.input === undefined ? "Category is required." : `Category must be one of: ${CATEGORIES.join(", ")}.`,
});

/** Optional everywhere: a create without it publishes (the spec's path), an update without it keeps the status. */
const statusField = z.preprocess(
  blankToUndefined,
  z.enum(BLOG_STATUSES, { error: `Status must be one of: ${BLOG_STATUSES.join(", ")}.` }).optional(),
);

/** The writer's "Don't email this post": a checkbox ("on"), or true/false from the REST API. */
const noEmailField = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === "") return undefined;
    if (v === true || v === "on" || v === "true" || v === "1") return true;
    if (v === false || v === "off" || v === "false" || v === "0") return false;
    return v;
  },
  z.boolean({ error: "Don't email this post must be true or false." }).optional(),
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
  status: statusField,
  no_email: noEmailField,
});

/** Updates: every field optional, and an empty one keeps the stored value (spec section 5). */
export const blogChangesInput = z.object({
  title: optionalText("Title", LIMITS.title),
  short_description: optionalText("Short description", LIMITS.shortDescription),
  blog_details: optionalText("Blog details", LIMITS.blogDetails),
  category: z.preprocess(blankToUndefined, categoryField.optional()),
  date_time: z.preprocess(blankToUndefined, dateTimeField.optional()),
  image: optionalUrl("Image"),
  status: statusField,
  no_email: noEmailField,
});

const byEmailInput = z.object({ email: emailField() });

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

/** What `actor` may read: every visible post, plus their own drafts; an admin reads every post. */
export function readableBy(actor: Actor | null): SQL | undefined {
  if (!actor) return visibleBlog();
  if (actor.role === "admin") return undefined;
  return or(visibleBlog(), eq(schema.blogs.authorId, actor.id));
}

/** Tells the newsletter a post may have just become public (it sends each post once). */
export type Announce = (blogId: string) => Promise<unknown>;

export function createBlogService(db: Db, purge: Purge, release: ReleaseImages, announce: Announce = async () => {}) {
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

    /**
     * GET /api/blogs: visible blogs newest first, a page at a time (`page`/`limit`, or a keyset `cursor`
     * from the previous answer's Link header). Without paging it answers the first page, not every blog
     * (docs/decisions/023-pagination-at-scale.md).
     */
    async list(input: { page?: unknown; limit?: unknown; cursor?: unknown }): Promise<CursorPage<Blog>> {
      return listPage(visibleBlog(), input);
    },

    /** One page of blogs and the total, in a single D1 round trip (no filters: every blog). */
    async page(input: { page?: unknown; limit?: unknown }, defaultLimit = 4): Promise<Page<Blog>> {
      return search({ page: input.page, limit: input.limit }, defaultLimit);
    },

    search,

    /**
     * Every post, drafts and scheduled ones included, a page at a time (the admin's Manage All Blogs),
     * optionally only those whose title or writer's name has the words of `q` (the full-text index), or
     * whose writer's email starts with it (the email index).
     */
    async adminPage(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown; q?: unknown },
      defaultLimit = 10,
    ): Promise<Page<Blog>> {
      requireAdmin(actor);
      const paging = parsePaging(input, defaultLimit);
      const where = adminBlogFilter(input.q);
      const [rows, totals] = await db.batch([newestPageQuery(db, where, paging), countQuery(db, where)]);
      return toBlogPage(rows, totals, paging.page, paging.limit);
    },

    /** A blog anyone may read; its writer (and an admin) also reads it as a draft or scheduled post. */
    async byId(id: string, actor: Actor | null = null): Promise<Blog> {
      return toBlog(await findRow(id, readableBy(actor)));
    },

    /** An author's visible blogs, newest first, a page at a time (public: GET /api/blog?email=). */
    async byAuthorEmail(input: {
      email?: unknown;
      page?: unknown;
      limit?: unknown;
      cursor?: unknown;
    }): Promise<CursorPage<Blog>> {
      const { email } = parse(byEmailInput, input);
      return listPage(visibleBlogsWhere(eq(schema.blogs.email, email)), input);
    },

    /** One page of the signed-in person's own blogs and their total, in a single D1 round trip (My Blogs, Manage Blogs). */
    async ownPage(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown },
      defaultLimit = 3,
    ): Promise<Page<Blog>> {
      const user = requireUser(actor);
      const paging = parsePaging(input, defaultLimit);
      const mine = eq(schema.blogs.authorId, user.id);
      const [rows, totals] = await db.batch([newestPageQuery(db, mine, paging), countQuery(db, mine)]);
      return toBlogPage(rows, totals, paging.page, paging.limit);
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
        emailSubscribers: !data.no_email,
      });
      await purge({ kind: "blog.created" });
      if (status === "published") await announce(id);
      return { insertedId: id };
    },

    /**
     * The scheduling sweep (a cron every minute): scheduled posts whose time has come become published,
     * and the cached pages that list them are purged. (The visible-blogs rule shows them from their time
     * on anyway; the sweep makes the status true and the cache fresh.)
     */
    async publishDue(now = Date.now()): Promise<number> {
      // At most PUBLISH_BATCH a run, from the scheduled-posts index: the rest go next minute (they are
      // already visible from their time on; only the status and the cache wait).
      const due = await db
        .update(schema.blogs)
        .set({ status: "published", updatedAt: now })
        .where(
          inArray(
            schema.blogs.id,
            db
              .select({ id: schema.blogs.id })
              .from(schema.blogs)
              .where(and(eq(schema.blogs.status, "scheduled"), lte(schema.blogs.publishAt, now)))
              .orderBy(schema.blogs.publishAt)
              .limit(PUBLISH_BATCH),
          ),
        )
        .returning({ id: schema.blogs.id });
      for (const { id } of due) {
        await purge({ kind: "blog.changed", blogId: id });
        await announce(id);
      }
      return due.length;
    },

    /** The own-blog edit (PUT /blog/{id}): the author or an admin. */
    async update(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      const user = requireUser(actor);
      const row = await findRow(id);
      if (!canEditBlog(user, row)) throw new Forbidden("Only the author or an admin can edit this blog.");
      return applyChanges(user, row, input);
    },

    /** The admin edit (PUT /blogs/{id}). */
    async adminUpdate(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      const admin = requireAdmin(actor);
      return applyChanges(admin, await findRow(id), input);
    },

    /** A post's earlier versions, newest first, with the post as it is now: its author or an admin. */
    async revisions(actor: Actor | null, id: string): Promise<{ blog: Blog; revisions: BlogRevision[] }> {
      const row = await editableRow(actor, id);
      const rows = await db
        .select()
        .from(schema.blogRevisions)
        .where(eq(schema.blogRevisions.blogId, row.id))
        .orderBy(desc(schema.blogRevisions.createdAt), desc(schema.blogRevisions.id));
      return { blog: toBlog(row), revisions: rows.map(toRevision) };
    },

    /**
     * Brings an earlier version back: an ordinary save (so the version it replaces becomes a revision
     * too, and the cache is purged like any edit). Restoring what is already there changes nothing.
     */
    async restoreRevision(actor: Actor | null, id: string, revisionId: string): Promise<{ modifiedCount: number }> {
      const row = await editableRow(actor, id);
      const revision = await findOr404(revisionId, "Revision not found.", (revisionId) =>
        db.query.blogRevisions.findFirst({
          where: and(eq(schema.blogRevisions.id, revisionId), eq(schema.blogRevisions.blogId, row.id)),
        }),
      );
      return writeChanges(requireUser(actor), row, {
        title: revision.title,
        shortDescription: revision.shortDescription,
        blogDetails: revision.blogDetails,
        category: revision.category,
        image: revision.image,
      });
    },

    async remove(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      const row = await findRow(id);
      if (!canEditBlog(user, row)) throw new Forbidden("Only the author or an admin can delete this blog.");
      const images = await postImageUrls(db, eq(schema.blogs.id, row.id));
      const deleted = await db
        .delete(schema.blogs)
        .where(eq(schema.blogs.id, row.id))
        .returning({ id: schema.blogs.id });
      await purge({ kind: "blog.changed", blogId: row.id });
      await release(images);
      return { deletedCount: deleted.length };
    },
  };

  /** Search and category filter with pagination: the page and the total in a single D1 round trip. */
  async function search(filters: BlogFilters, defaultLimit = 4): Promise<Page<SearchHit>> {
    const { page, limit, queries } = blogSearchQueries(db, filters, defaultLimit);
    const [rows, totals] = await db.batch(queries);
    return toSearchPage(rows, totals, page, limit);
  }

  /** A page of `where` by number (page/limit) or after a cursor, with the total; one D1 round trip. */
  async function listPage(
    where: SQL,
    input: { page?: unknown; limit?: unknown; cursor?: unknown },
  ): Promise<CursorPage<Blog>> {
    const paging: Paging = parsePaging(input, API_PAGE_SIZE);
    const hasCursor = input.cursor !== undefined && input.cursor !== "";
    const [rows, totals] = await db.batch([
      hasCursor ? cursorPageQuery(db, where, input.cursor, paging.limit) : newestPageQuery(db, where, paging),
      countQuery(db, where),
    ]);
    const more = hasCursor ? rows.length > paging.limit : paging.offset + rows.length < (totals[0]?.total ?? 0);
    const shown = rows.slice(0, paging.limit);
    const last = shown[shown.length - 1];
    return {
      ...toBlogPage(shown, totals, hasCursor ? 1 : paging.page, paging.limit),
      next: more && last ? cursorOf(last) : null,
    };
  }

  function findRow(id: string, condition?: SQL): Promise<BlogRow> {
    return findOr404(id, "Blog not found.", (id) =>
      db.query.blogs.findFirst({ where: and(eq(schema.blogs.id, id), condition) }),
    );
  }

  async function editableRow(actor: Actor | null, id: string): Promise<BlogRow> {
    const user = requireUser(actor);
    const row = await findRow(id);
    if (!canEditBlog(user, row)) throw new Forbidden("Only the author or an admin can edit this blog.");
    return row;
  }

  /** Writes only the fields that differ, so "no change" is answered without touching D1. */
  async function applyChanges(actor: Actor, row: BlogRow, input: unknown): Promise<{ modifiedCount: number }> {
    const data = parse(blogChangesInput, input);
    const wanted: Partial<BlogRow> = {
      title: data.title,
      shortDescription: data.short_description,
      blogDetails: data.blog_details,
      category: data.category,
      dateTime: data.date_time,
      image: data.image,
      ...(data.no_email === undefined ? {} : { emailSubscribers: !data.no_email }),
      ...(data.status ? publication(data.status, data.date_time ?? row.dateTime) : {}),
    };
    return writeChanges(actor, row, wanted);
  }

  /**
   * The one write of every edit and restore: the changed fields, and (when the content changed) the
   * version they replace as a revision, in one D1 batch so neither lands without the other.
   */
  async function writeChanges(
    actor: Actor,
    row: BlogRow,
    wanted: Partial<BlogRow>,
  ): Promise<{ modifiedCount: number }> {
    const changes = changedFields(row, wanted);
    if (!changes) return { modifiedCount: 0 };
    const update = db
      .update(schema.blogs)
      .set({ ...changes, updatedAt: Date.now() })
      .where(eq(schema.blogs.id, row.id));
    if (REVISED_FIELDS.some((field) => field in changes)) {
      const revision = db.insert(schema.blogRevisions).values({
        id: newId(),
        blogId: row.id,
        savedBy: actor.id,
        savedByName: actor.name,
        title: row.title,
        shortDescription: row.shortDescription,
        blogDetails: row.blogDetails,
        category: row.category,
        image: row.image,
      });
      await db.batch([revision, update]);
    } else {
      await update;
    }
    await purge({ kind: "blog.changed", blogId: row.id });
    await release([row.image, ...imageUrlsIn(row.blogDetails)]);
    // Published by this save (the newsletter ignores a post it already sent).
    if (changes.status === "published") await announce(row.id);
    return { modifiedCount: 1 };
  }
}

export type BlogService = ReturnType<typeof createBlogService>;
