import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { forReader } from "#worker/services/blogs/emails.ts";
import { byEmailInput } from "#worker/services/blogs/input.ts";
import { publishDue } from "#worker/services/blogs/publisher.ts";
import type { Created } from "#worker/services/blogs/outreach.ts";
import { createPostWriting } from "#worker/services/blogs/writing.ts";
import { LATEST_BLOGS, toBlog, type Blog, type BlogRow } from "#worker/services/blogs/model.ts";
import { anyStatusList, countQuery, filteredList, visibleList } from "#worker/services/blogs/lists.ts";
import { listPageOf, pageOfList } from "#worker/services/blogs/pages.ts";
import {
  adminBlogFilter,
  blogSearchQueries,
  readableBy,
  toSearchPage,
  type BlogFilters,
  type CursorPage,
  type SearchHit,
} from "#worker/services/blogs/queries.ts";
import { createBlogRevisions, type BlogRevision } from "#worker/services/blogs/revisions.ts";
import { postImageUrls, type ImageCleanup } from "#worker/services/images/cleanup.ts";
import type { ImageService } from "#worker/services/images/service.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { Forbidden } from "#worker/services/shared/errors.ts";
import type { Page } from "#worker/services/shared/pagination.ts";
import { canEditBlog, requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { findOr404 } from "#worker/services/shared/records.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { newestFirst, readsInFull, visibleBlog } from "#worker/services/blogs/visible.ts";

/** GET /api/blogs without paging answers this many, newest first (the spec's client reads the first page). */
export const API_PAGE_SIZE = 20;

/**
 * Posts. `imageCleanup` lets go of the images a write dropped; `images` keeps a form's upload (the composition
 * root passes the images service; a read-only test may leave it out). A write emits its own events
 * (`post.published`, `post.changed`) right after its batch: writing.ts, revisions.ts, publisher.ts, `remove`.
 */
export function createBlogService(
  k: Kernel,
  deps: { imageCleanup: Pick<ImageCleanup, "release">; images?: Pick<ImageService, "storeUpload"> },
) {
  const { db, purge, events } = k;
  const history = createBlogRevisions(k, deps);
  const readerPage = async <P extends { items: Blog[] }>(page: P, actor: Actor | null): Promise<P> => ({
    ...page,
    items: await forReader(db, page.items, actor),
  });
  const writing = createPostWriting(k, { history, images: deps.images });
  /** One edit: the post loaded and its editor checked once; `save` writes the form's changes to that row. */
  const editing = (user: Actor, row: BlogRow) => ({
    blog: toBlog(row, true),
    save: (input: unknown, upload?: unknown, socialUpload?: unknown): Promise<{ modifiedCount: number }> =>
      writing.applyChanges(user, row, input, upload, socialUpload),
  });
  return {
    /** GET /api/latest-blogs. `actor`: who reads (a post's `email` is its writer's and admins' alone). */
    async latest(limit = LATEST_BLOGS, actor: Actor | null = null): Promise<Blog[]> {
      const rows = await db
        .select()
        .from(schema.blogs)
        .where(visibleBlog())
        .orderBy(...newestFirst)
        .limit(limit);
      return forReader(
        db,
        rows.map((row) => toBlog(row)),
        actor,
      );
    },

    /**
     * GET /api/blogs: visible blogs newest first, a page at a time (`page`/`limit`, or a keyset `cursor`
     * from the previous answer's Link header). Without paging it answers the first page, not every blog
     * (docs/decisions/023-pagination-at-scale.md).
     */
    async list(
      input: { page?: unknown; limit?: unknown; cursor?: unknown },
      actor: Actor | null = null,
    ): Promise<CursorPage<Blog>> {
      return readerPage(await listPageOf(db, visibleList({ by: "all" }), input, API_PAGE_SIZE), actor);
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
      const filter = adminBlogFilter(input.q);
      return pageOfList(db, filter ? filteredList(filter) : anyStatusList({ by: "all" }), input, defaultLimit);
    },

    /** A blog anyone may read; its writer (and an admin) also reads it as a draft or scheduled post. */
    async byId(id: string, actor: Actor | null = null): Promise<Blog> {
      const row = await findRow(id, readableBy(actor));
      const [blog] = await forReader(db, [toBlog(row, await readsInFull(db, actor, row))], actor);
      return blog!;
    },

    /**
     * An author's visible blogs, newest first, a page at a time (GET /api/blog?email=). A writer asking
     * with their own sign-in address, and an admin, find posts by it; anyone else only by a writer's
     * public contact address (a sign-in address answers nothing: it says nothing about who writes here).
     */
    async byAuthorEmail(
      input: { email?: unknown; page?: unknown; limit?: unknown; cursor?: unknown },
      actor: Actor | null = null,
    ): Promise<CursorPage<Blog>> {
      const { email } = parse(byEmailInput, input);
      if (actor && (actor.role === "admin" || actor.email.toLowerCase() === email)) {
        return readerPage(await listPageOf(db, visibleList({ by: "email", key: email }), input, API_PAGE_SIZE), actor);
      }
      const writer = await db.query.users.findFirst({
        columns: { id: true },
        where: and(eq(schema.users.contactEmail, email), ne(schema.users.contactEmail, "")),
      });
      const list = writer ? visibleList({ by: "author", key: writer.id }) : filteredList(sql`0`);
      return readerPage(await listPageOf(db, list, input, API_PAGE_SIZE), actor);
    },

    /** One page of the signed-in person's own blogs and their total, in a single D1 round trip (My Blogs, Manage Blogs). */
    async ownPage(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown },
      defaultLimit = 3,
    ): Promise<Page<Blog>> {
      const user = requireUser(actor);
      return pageOfList(db, anyStatusList({ by: "author", key: user.id }), input, defaultLimit);
    },

    /** How many of the actor's own posts are published (visible): My Blogs' "You have published N posts". */
    async ownPublishedCount(actor: Actor | null): Promise<number> {
      const user = requireUser(actor);
      const [row] = await countQuery(db, visibleList({ by: "author", key: user.id }));
      return row?.total ?? 0;
    },

    /** A blog the actor may edit (its author or an admin): the edit form's preload, and the check before an upload. */
    async editable(actor: Actor | null, id: string): Promise<Blog> {
      return toBlog((await editableRow(actor, id)).row, true);
    },

    /**
     * A new post. `upload` is the write form's image file (and `socialUpload` its social image file):
     * stored only once every field and the schedule have been checked, so a refused post never leaves an
     * image in R2. The REST call sends the URL of an earlier upload in `input.image` instead.
     */
    async create(actor: Actor | null, input: unknown, upload?: unknown, socialUpload?: unknown): Promise<Created> {
      return writing.create(requireUser(actor), input, upload, socialUpload);
    },

    /** The scheduling sweep (a cron every minute): worker/services/blogs/publisher.ts. */
    publishDue: (now = Date.now()) => publishDue(k, now),

    /**
     * The own-blog edit as one use case (the Update Blog page): the post, read once if the actor may edit
     * it (its author or an admin), as the form shows it, and `save` for the form's changes to that row.
     */
    edit,

    /** The admin's edit as one use case (the admin's Update Blog page): any post, read once. */
    adminEdit,

    /** The own-blog edit (PUT /blog/{id}): the author or an admin. Uploads: a new cover, a social image. */
    async update(
      actor: Actor | null,
      id: string,
      input: unknown,
      upload?: unknown,
      socialUpload?: unknown,
    ): Promise<{ modifiedCount: number }> {
      return (await edit(actor, id)).save(input, upload, socialUpload);
    },

    /** The admin edit (PUT /blogs/{id}). */
    async adminUpdate(
      actor: Actor | null,
      id: string,
      input: unknown,
      upload?: unknown,
      socialUpload?: unknown,
    ): Promise<{ modifiedCount: number }> {
      return (await adminEdit(actor, id)).save(input, upload, socialUpload);
    },

    /** A post's earlier versions, newest first, with the post as it is now: its author or an admin. */
    async revisions(actor: Actor | null, id: string): Promise<{ blog: Blog; revisions: BlogRevision[] }> {
      const { row } = await editableRow(actor, id);
      return { blog: toBlog(row, true), revisions: await history.list(row) };
    },

    /**
     * Brings an earlier version back: an ordinary save (so the version it replaces becomes a revision
     * too, and the cache is purged like any edit). Restoring what is already there changes nothing.
     */
    async restoreRevision(actor: Actor | null, id: string, revisionId: string): Promise<{ modifiedCount: number }> {
      const { user, row } = await editableRow(actor, id);
      return history.restore(user, row, revisionId);
    },

    async remove(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      const { row } = await editableRow(actor, id, "Only the author or an admin can delete this blog.");
      const images = await postImageUrls(db, eq(schema.blogs.id, row.id));
      const deleted = await db
        .delete(schema.blogs)
        .where(eq(schema.blogs.id, row.id))
        .returning({ id: schema.blogs.id });
      await purge({ kind: "blog.changed", blogId: row.id });
      await deps.imageCleanup.release(images);
      // A post that is gone goes to the fediverse whoever wrote it: it withdraws only what it sent.
      await events.emit("post.changed", { blogId: row.id });
      return { deletedCount: deleted.length };
    },
  };

  /** Search and category filter with pagination: the page and the total in a single D1 round trip. */
  async function search(filters: BlogFilters, defaultLimit = 4): Promise<Page<SearchHit>> {
    const { page, limit, queries } = blogSearchQueries(db, filters, defaultLimit);
    const [rows, totals] = await db.batch(queries);
    return toSearchPage(rows, totals, page, limit);
  }

  function findRow(id: string, condition?: SQL): Promise<BlogRow> {
    return findOr404(id, "Blog not found.", (id) =>
      db.query.blogs.findFirst({ where: and(eq(schema.blogs.id, id), condition) }),
    );
  }

  async function edit(actor: Actor | null, id: string) {
    const { user, row } = await editableRow(actor, id);
    return editing(user, row);
  }

  async function adminEdit(actor: Actor | null, id: string) {
    const admin = requireAdmin(actor);
    return editing(admin, await findRow(id));
  }

  /** The one owner-or-admin check: the signed-in actor and the post they may change. */
  async function editableRow(
    actor: Actor | null,
    id: string,
    refusal = "Only the author or an admin can edit this blog.",
  ): Promise<{ user: Actor; row: BlogRow }> {
    const user = requireUser(actor);
    const row = await findRow(id);
    if (!canEditBlog(user, row)) throw new Forbidden(refusal);
    return { user, row };
  }
}

export type BlogService = ReturnType<typeof createBlogService>;
