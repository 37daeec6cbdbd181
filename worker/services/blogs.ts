import { count, desc, eq } from "drizzle-orm";
import type { Db } from "../db";
import { schema } from "../db";
import { NotFound } from "./errors";
import { isIdShaped } from "./ids";

type BlogRow = typeof schema.blogs.$inferSelect;

/** A blog as the REST contract and the pages see it. */
export interface Blog {
  _id: string;
  title: string;
  short_description: string;
  blog_details: string;
  category: string;
  author_name: string;
  email: string;
  author_image: string | null;
  date_time: string;
  image: string;
  likes: number;
}

export function toBlog(row: BlogRow): Blog {
  return {
    _id: row.id,
    title: row.title,
    short_description: row.shortDescription,
    blog_details: row.blogDetails,
    category: row.category,
    author_name: row.authorName,
    email: row.email,
    author_image: row.authorImage,
    date_time: row.dateTime,
    image: row.image,
    likes: row.likes,
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

export function createBlogService(db: Db) {
  const newestFirst = [desc(schema.blogs.dateTime), desc(schema.blogs.createdAt)] as const;

  return {
    async latest(limit = LATEST_BLOGS): Promise<Blog[]> {
      const rows = await db.select().from(schema.blogs).orderBy(...newestFirst).limit(limit);
      return rows.map(toBlog);
    },

    async all(): Promise<Blog[]> {
      const rows = await db.select().from(schema.blogs).orderBy(...newestFirst);
      return rows.map(toBlog);
    },

    /** One page of blogs and the total, in a single D1 round trip. */
    async page(input: { page?: unknown; limit?: unknown }, defaultLimit = 4): Promise<Page<Blog>> {
      const { page, limit } = normalizePage(input.page, input.limit, defaultLimit);
      const [rows, totals] = await db.batch([
        db
          .select()
          .from(schema.blogs)
          .orderBy(...newestFirst)
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ total: count() }).from(schema.blogs),
      ]);
      const total = totals[0]?.total ?? 0;
      return { items: rows.map(toBlog), total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
    },

    async byId(id: string): Promise<Blog> {
      if (!isIdShaped(id)) throw new NotFound("Blog not found.");
      const row = await db.query.blogs.findFirst({ where: eq(schema.blogs.id, id) });
      if (!row) throw new NotFound("Blog not found.");
      return toBlog(row);
    },
  };
}

export type BlogService = ReturnType<typeof createBlogService>;
