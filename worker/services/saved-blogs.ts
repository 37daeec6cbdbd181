import { and, count, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import type { BlogSummary } from "#worker/services/blogs/model.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { Forbidden, NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped, newId } from "#worker/services/shared/ids.ts";
import { isAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { emailField, parse, requiredText } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** One entry of a saved list, with just enough of the blog to draw its card. */
export interface SavedBlog {
  _id: string;
  blogId: string;
  email: string;
  blog: BlogSummary;
}

/** Saved posts per page of /saved. */
export const SAVED_PAGE_SIZE = 10;
/** GET /api/saved-blogs without paging answers this many. */
export const SAVED_API_PAGE_SIZE = 20;

export const saveInput = z.object({
  blogId: requiredText("Blog", 64),
  // The spec's client sends the signed-in user's email; when given it must be theirs.
  email: emailField().optional(),
});

const listInput = z.object({ email: emailField() });

/** The columns of a saved entry with its blog card (one shape for every saved list). */
const savedEntry = {
  _id: schema.savedBlogs.id,
  blogId: schema.savedBlogs.blogId,
  email: schema.savedBlogs.email,
  blog: {
    // Aliased: D1 batches return rows keyed by column name, so a second "id" (or "blog_id") would collide.
    _id: sql<string>`${schema.blogs.id}`.as("saved_blog_ref"),
    title: schema.blogs.title,
    image: schema.blogs.image,
    category: schema.blogs.category,
    author_name: schema.blogs.authorName,
    short_description: schema.blogs.shortDescription,
  },
};

/** A user's most recently saved blogs, as an un-sent query a page loader can batch. */
export function recentlySavedQuery(db: Db, userId: string, limit: number) {
  return db
    .select(savedEntry)
    .from(schema.savedBlogs)
    .innerJoin(schema.blogs, eq(schema.blogs.id, schema.savedBlogs.blogId))
    .where(visibleBlogsWhere(eq(schema.savedBlogs.userId, userId)))
    .orderBy(desc(schema.savedBlogs.createdAt), desc(sql`${schema.savedBlogs}.rowid`))
    .limit(limit);
}

/** Whether this user saved this blog, as an un-sent query a page loader can batch. */
export function savedStateQuery(db: Db, userId: string, blogId: string) {
  return db
    .select({ one: sql<number>`1` })
    .from(schema.savedBlogs)
    .where(and(eq(schema.savedBlogs.userId, userId), eq(schema.savedBlogs.blogId, blogId)))
    .limit(1);
}

export function createSavedBlogService(k: Kernel) {
  const { db } = k;
  return {
    /**
     * Saves a blog into the actor's own list. Saving again keeps the one entry and still succeeds,
     * because the spec's client treats any 200 as "Blog Saved Successfully".
     */
    async save(
      actor: Actor | null,
      input: unknown,
    ): Promise<{ success: true; insertedId: string } | { success: true; alreadySaved: true }> {
      const user = requireUser(actor);
      const data = parse(saveInput, input);
      // A list belongs to one person: nobody, admins included, saves into someone else's.
      if (data.email !== undefined && data.email !== user.email.toLowerCase()) {
        throw new Forbidden("You can only save blogs to your own list.");
      }
      if (!isIdShaped(data.blogId)) throw new NotFound("Blog not found.");
      const blog = await db.query.blogs.findFirst({
        where: visibleBlogsWhere(eq(schema.blogs.id, data.blogId)),
        columns: { id: true },
      });
      if (!blog) throw new NotFound("Blog not found.");
      const inserted = await db
        .insert(schema.savedBlogs)
        .values({ id: newId(), userId: user.id, blogId: blog.id, email: user.email.toLowerCase() })
        .onConflictDoNothing({ target: [schema.savedBlogs.userId, schema.savedBlogs.blogId] })
        .returning({ id: schema.savedBlogs.id });
      const row = inserted[0];
      return row ? { success: true, insertedId: row.id } : { success: true, alreadySaved: true };
    },

    /**
     * The /saved page: one page of the actor's own list, newest save first. Only visible blogs count,
     * so a saved post that went back to draft drops out of the list (and its total) until it is public again.
     */
    async page(actor: Actor | null, input: { page?: unknown; limit?: unknown }): Promise<Page<SavedBlog>> {
      const user = requireUser(actor);
      return savedPage(user.id, input, SAVED_PAGE_SIZE);
    },

    /**
     * Takes a blog out of the actor's own list. Removing what is not there answers 404, so a second
     * Remove (a double submit, a stale tab) says so instead of pretending. Saving is personal: no cached
     * public answer shows who saved what or how many times, so nothing is purged.
     */
    async remove(actor: Actor | null, blogId: string): Promise<{ deletedCount: number }> {
      const user = requireUser(actor);
      if (!isIdShaped(blogId)) throw new NotFound("This blog is not in your saved list.");
      const deleted = await db
        .delete(schema.savedBlogs)
        .where(and(eq(schema.savedBlogs.userId, user.id), eq(schema.savedBlogs.blogId, blogId)))
        .returning({ id: schema.savedBlogs.id });
      if (!deleted.length) throw new NotFound("This blog is not in your saved list.");
      return { deletedCount: deleted.length };
    },

    /** A saved list, newest saved first, a page at a time (GET /api/saved-blogs): your own, or anyone's for an admin. */
    async list(
      actor: Actor | null,
      input: { email?: unknown; page?: unknown; limit?: unknown },
    ): Promise<Page<SavedBlog>> {
      const user = requireUser(actor);
      const { email } = parse(listInput, input);
      if (email !== user.email.toLowerCase() && !isAdmin(user)) {
        throw new Forbidden("You can only see your own saved blogs.");
      }
      if (email === user.email.toLowerCase()) return savedPage(user.id, input, SAVED_API_PAGE_SIZE);
      const [owner] = await db
        .select({ id: schema.users.id })
        .from(schema.users)
        .where(eq(schema.users.email, email))
        .limit(1);
      if (!owner) return toPage([], 0, parsePaging(input, SAVED_API_PAGE_SIZE));
      return savedPage(owner.id, input, SAVED_API_PAGE_SIZE);
    },
  };

  /** One page of a user's saved list (visible blogs only), newest save first, and its total: one round trip. */
  async function savedPage(
    userId: string,
    input: { page?: unknown; limit?: unknown },
    defaultLimit: number,
  ): Promise<Page<SavedBlog>> {
    const paging = parsePaging(input, defaultLimit);
    const { limit, offset } = paging;
    const where = visibleBlogsWhere(eq(schema.savedBlogs.userId, userId));
    const [items, totals] = await db.batch([
      db
        .select(savedEntry)
        .from(schema.savedBlogs)
        .innerJoin(schema.blogs, eq(schema.blogs.id, schema.savedBlogs.blogId))
        .where(where)
        // Two saves in the same millisecond still come back in the order they were made.
        .orderBy(desc(schema.savedBlogs.createdAt), desc(sql`${schema.savedBlogs}.rowid`))
        .limit(limit)
        .offset(offset),
      db
        .select({ total: count() })
        .from(schema.savedBlogs)
        .innerJoin(schema.blogs, eq(schema.blogs.id, schema.savedBlogs.blogId))
        .where(where),
    ]);
    return toPage(items, totals[0]?.total ?? 0, paging);
  }
}

export type SavedBlogService = ReturnType<typeof createSavedBlogService>;
