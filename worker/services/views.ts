import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { anyStatusList, pageIdsQuery } from "#worker/services/blogs/lists.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { isbot } from "isbot";
import { schema } from "#worker/db.ts";
import type { FlushResult } from "#worker/views/counter.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { newestFirst, visibleBlogsWhere } from "#worker/services/blogs/visible.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** Posts are spread over this many counters: enough to share the load, few enough to flush all at once. */
export const VIEW_SHARDS = 8;
/** Rows per page of the Stats per-post table. */
export const STATS_PAGE_SIZE = 20;
/** The Stats page's chart spans this many days, today included. */
export const STATS_DAYS = 30;

const DAY_MS = 86_400_000;
/** The UTC day of an instant, as stored in blog_views_daily. */
export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The counter a post's views go to (FNV-1a of its id): stable, so a reader's repeat view meets its hash. */
export function shardOf(blogId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < blogId.length; i++) h = Math.imul(h ^ blogId.charCodeAt(i), 0x01000193);
  return `views-${(h >>> 0) % VIEW_SHARDS}`;
}

export interface ViewRequest {
  blogId: string;
  /** The client's address (CF-Connecting-IP); hashed with the day's salt inside the counter, never stored. */
  ip: string;
  userAgent: string;
}

export interface PostStats {
  _id: string;
  title: string;
  status: "draft" | "scheduled" | "published";
  views: number;
  views30: number;
  likes: number;
  comments: number;
  saves: number;
}

export interface Stats {
  scope: "site" | "writer";
  /** One page of the per-post table, newest first. */
  posts: Page<PostStats>;
  /** Views per day, oldest first, every one of the last STATS_DAYS days (zero when none). */
  daily: { day: string; views: number }[];
  totals: { views: number; views30: number; likes: number; comments: number; saves: number };
}

/** View counting (a beacon from the post page) and the dashboard's Stats. */
export function createViewService(k: Kernel) {
  const { db, env } = k;
  const counter = (blogId: string) => env.VIEWS.get(env.VIEWS.idFromName(shardOf(blogId)));

  return {
    /**
     * Counts one view of a visible post: once per reader, post and day; never a bot's, nor the writer's
     * own. A draft, a post scheduled for later or an unknown id is NotFound (as anywhere public).
     */
    async record(actor: Actor | null, view: ViewRequest, now = Date.now()): Promise<{ counted: boolean }> {
      if (!isIdShaped(view.blogId)) throw new NotFound("Blog not found.");
      // One read by primary key (a replica may answer it); the write is the counter's, batched.
      const [blog] = await db
        .select({ authorId: schema.blogs.authorId })
        .from(schema.blogs)
        .where(visibleBlogsWhere(eq(schema.blogs.id, view.blogId)))
        .limit(1);
      if (!blog) throw new NotFound("Blog not found.");
      if (!view.userAgent || isbot(view.userAgent)) return { counted: false };
      if (actor?.id === blog.authorId) return { counted: false };
      const counted = await counter(view.blogId).record({
        blogId: view.blogId,
        day: utcDay(now),
        ip: view.ip,
        userAgent: view.userAgent,
      });
      return { counted };
    },

    /** Sends every counter's pending views to D1 now (the Stats page does, so it shows them at once). */
    async flushAll(): Promise<FlushResult> {
      const results = await Promise.all(
        Array.from({ length: VIEW_SHARDS }, (_, i) => env.VIEWS.get(env.VIEWS.idFromName(`views-${i}`)).flush()),
      );
      return results.reduce((a, r) => ({ rows: a.rows + r.rows, batches: a.batches + r.batches }), {
        rows: 0,
        batches: 0,
      });
    },

    /**
     * A writer's own posts, or for an admin every post of the site: totals and views per day summed in
     * SQL (on indexes), and one page of the per-post table. One D1 round trip at any size.
     */
    async stats(actor: Actor | null, input: { page?: unknown } = {}, now = Date.now()): Promise<Stats> {
      const user = requireUser(actor);
      const paging = parsePaging({ page: input.page }, STATS_PAGE_SIZE);
      const site = user.role === "admin";
      const b = schema.blogs;
      const mine = anyStatusList(site ? { by: "all" } : { by: "author", key: user.id });
      const days = Array.from({ length: STATS_DAYS }, (_, i) => utcDay(now - (STATS_DAYS - 1 - i) * DAY_MS));
      const since = days[0]!;
      // Totals and the chart come from rows kept by triggers (writer_totals, writer_views_daily, migration
      // 0016): one row, and a day's row per day, whether the writer has 3 posts or 100,000.
      const owner = site ? "*" : user.id;
      const kept = schema.writerTotals;
      const d = schema.writerViewsDaily;
      const totalsQuery = db
        .select({
          posts: kept.posts,
          likes: kept.likes,
          views: kept.views,
          views30: sql<number>`(select coalesce(sum(views), 0) from writer_views_daily where owner = ${owner} and day >= ${since})`,
          comments: kept.comments,
          saves: kept.saves,
        })
        .from(kept)
        .where(eq(kept.owner, owner));
      const [posts, totals, daily] = await db.batch([
        db
          .select({
            _id: b.id,
            title: b.title,
            status: b.status,
            likes: b.likes,
            // Written out with table names: drizzle leaves columns unqualified in a one-table select, and
            // an unqualified "id" inside these subqueries would mean the subquery's own table.
            views: sql<number>`(select coalesce(sum(v.views), 0) from blog_views_daily v where v.blog_id = blogs.id)`,
            views30: sql<number>`(select coalesce(sum(v.views), 0) from blog_views_daily v where v.blog_id = blogs.id and v.day >= ${since})`,
            comments: sql<number>`(select count(*) from comments c where c.blog_id = blogs.id)`,
            saves: sql<number>`(select count(*) from saved_blogs s where s.blog_id = blogs.id)`,
          })
          .from(b)
          .where(inArray(b.id, pageIdsQuery(db, mine, paging.limit, paging.offset)))
          .orderBy(...newestFirst),
        totalsQuery,
        db
          .select({ day: d.day, views: d.views })
          .from(d)
          .where(and(eq(d.owner, owner), gte(d.day, since))),
      ]);
      const byDay = new Map(daily.map((row) => [row.day, Number(row.views)]));
      const rows = posts.map((p) => ({
        ...p,
        views: Number(p.views),
        views30: Number(p.views30),
        comments: Number(p.comments),
        saves: Number(p.saves),
      }));
      const t = totals[0];
      return {
        scope: site ? "site" : "writer",
        posts: toPage(rows, Number(t?.posts ?? 0), paging),
        daily: days.map((day) => ({ day, views: byDay.get(day) ?? 0 })),
        totals: {
          views: Number(t?.views ?? 0),
          views30: Number(t?.views30 ?? 0),
          likes: Number(t?.likes ?? 0),
          comments: Number(t?.comments ?? 0),
          saves: Number(t?.saves ?? 0),
        },
      };
    },
  };
}
