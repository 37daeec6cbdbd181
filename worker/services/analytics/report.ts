import { and, between, desc, eq, gt, sql } from "drizzle-orm";
import { schema, type Db } from "#worker/db.ts";
import { Forbidden, NotFound, ValidationError } from "#worker/services/shared/errors.ts";
import { requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import {
  addDays,
  daysBetween,
  MAX_RANGE_DAYS,
  RECENT_MINUTES,
  summaryQuery,
  TOP_N,
  utcDay,
  type Summary,
  type SummaryQuery,
  type SummaryRow,
} from "#worker/services/analytics/model.ts";

/** Whose numbers a person may read: an admin the site, a writer their own posts; one post for either. */
export interface Scope {
  kind: "site" | "writer" | "post";
  /** The rollups' scope key: "site", "w:<writer>", "p:<post>". */
  key: string;
  post: { id: string; title: string } | null;
}

/**
 * The scope of a question: a post must exist and be the asker's own (admins: any); without a post, an
 * admin sees the site and a writer their own posts.
 */
export async function scopeOf(db: Db, actor: Actor | null, post?: string): Promise<Scope> {
  const user = requireUser(actor);
  if (post) {
    const [blog] = await db
      .select({ id: schema.blogs.id, title: schema.blogs.title, authorId: schema.blogs.authorId })
      .from(schema.blogs)
      .where(eq(schema.blogs.id, post))
      .limit(1);
    if (!blog) throw new NotFound("Blog not found.");
    if (user.role !== "admin" && blog.authorId !== user.id)
      throw new Forbidden("You can only see the analytics of your own posts.");
    return { kind: "post", key: `p:${blog.id}`, post: { id: blog.id, title: blog.title } };
  }
  return user.role === "admin"
    ? { kind: "site", key: "site", post: null }
    : { kind: "writer", key: `w:${user.id}`, post: null };
}

/**
 * The range asked for (both ends inclusive), by default the last 30 days, today included. The bound is
 * checked here, once the defaults are filled in: `?from=1900-01-01` alone would otherwise run to today.
 */
export function rangeOf(query: { from?: string; to?: string }, now: number): { from: string; to: string } {
  const to = query.to ?? (query.from && query.from > utcDay(now) ? query.from : utcDay(now));
  const from = query.from ?? addDays(to, -29);
  if (daysBetween(from, to) > MAX_RANGE_DAYS) {
    throw new ValidationError({ from: `Ask for at most ${MAX_RANGE_DAYS} days.` });
  }
  return { from, to };
}

const n = (v: unknown) => Number(v ?? 0);

/** Summaries, the live counter: read from the rollups only (one D1 batch), so their cost follows days and keys, not hits. */
export function createAnalyticsReports(db: Db) {
  const d = schema.analyticsDaily;

  const top = (scope: string, dim: string, from: string, to: string) =>
    db
      .select({ key: d.key, pageviews: sql<number>`sum(${d.pageviews})`, visitors: sql<number>`sum(${d.visitors})` })
      .from(d)
      .where(and(eq(d.scope, scope), eq(d.dim, dim), between(d.day, from, to)))
      .groupBy(d.key)
      .orderBy(sql`2 desc`, d.key)
      .limit(TOP_N);

  return {
    /** GET /api/analytics/summary and the dashboard: totals, series, previous period, top lists. */
    async summary(
      actor: Actor | null,
      input: SummaryQuery | Record<string, unknown>,
      now = Date.now(),
    ): Promise<Summary> {
      const query = parse(summaryQuery, input);
      const scope = await scopeOf(db, actor, query.post);
      const { from, to } = rangeOf(query, now);
      const length = daysBetween(from, to);
      const previous = { from: addDays(from, -length), to: addDays(from, -1) };
      const days = (a: string, b: string) =>
        db
          .select({ day: d.day, pageviews: d.pageviews, visitors: d.visitors })
          .from(d)
          .where(and(eq(d.scope, scope.key), eq(d.dim, "total"), between(d.day, a, b)));
      const topPosts = db
        .select({
          key: d.key,
          pv: sql<number>`sum(${d.pageviews})`.as("pv"),
          v: sql<number>`sum(${d.visitors})`.as("v"),
        })
        .from(d)
        .where(and(eq(d.scope, scope.key), eq(d.dim, "post"), between(d.day, from, to)))
        .groupBy(d.key)
        .orderBy(sql`pv desc`, d.key)
        .limit(TOP_N)
        .as("t");
      const [series, before, posts, sources, sites, countries, devices, browsers] = await db.batch([
        days(from, to),
        days(previous.from, previous.to),
        // Top posts are summed first and only the ten named (a deleted post drops out).
        db
          .select({ id: topPosts.key, title: schema.blogs.title, pageviews: topPosts.pv, visitors: topPosts.v })
          .from(topPosts)
          .innerJoin(schema.blogs, eq(schema.blogs.id, topPosts.key))
          .orderBy(desc(topPosts.pv), topPosts.key),
        top(scope.key, "source", from, to),
        top(scope.key, "site", from, to),
        top(scope.key, "country", from, to),
        top(scope.key, "device", from, to),
        top(scope.key, "browser", from, to),
      ]);
      // Every day of the range, zero when nothing was read.
      const fill = (start: string, rows: { day: string; pageviews: number; visitors: number }[]) => {
        const byDay = new Map(rows.map((r) => [r.day, r]));
        return Array.from({ length }, (_, i) => addDays(start, i)).map((date) => ({
          date,
          pageviews: n(byDay.get(date)?.pageviews),
          visitors: n(byDay.get(date)?.visitors),
        }));
      };
      const filled = fill(from, series);
      const earlier = fill(previous.from, before);
      const sum = (list: typeof filled, k: "pageviews" | "visitors") => list.reduce((a, r) => a + r[k], 0);
      const rows = (list: { key: string; pageviews: unknown; visitors: unknown }[]): SummaryRow[] =>
        list.map((r) => ({ key: r.key, pageviews: n(r.pageviews), visitors: n(r.visitors) }));
      return {
        scope: scope.kind,
        post: scope.post,
        from,
        to,
        pageviews: sum(filled, "pageviews"),
        visitors: sum(filled, "visitors"),
        previous: {
          ...previous,
          pageviews: sum(earlier, "pageviews"),
          visitors: sum(earlier, "visitors"),
          series: earlier,
        },
        series: filled,
        topPosts:
          scope.kind === "post"
            ? []
            : (posts as { id: string; title: string; pageviews: unknown; visitors: unknown }[]).map((p) => ({
                id: p.id,
                title: p.title,
                pageviews: n(p.pageviews),
                visitors: n(p.visitors),
              })),
        sources: rows(sources),
        sites: rows(sites),
        countries: rows(countries),
        devices: rows(devices),
        browsers: rows(browsers),
      };
    },

    /** Pageviews in the last 30 minutes (the minute counter), in the asker's scope. */
    async recent(actor: Actor | null, post?: string, now = Date.now()): Promise<number> {
      const scope = await scopeOf(db, actor, post);
      const r = schema.analyticsRecent;
      const [row] = await db
        .select({ pageviews: sql<number>`sum(${r.pageviews})` })
        .from(r)
        .where(and(eq(r.scope, scope.key), gt(r.minute, Math.floor(now / 60_000) - RECENT_MINUTES)));
      return n(row?.pageviews);
    },
  };
}
