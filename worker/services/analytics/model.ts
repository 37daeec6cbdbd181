import { z } from "zod";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import type { AnalyticsHit } from "#worker/queues/messages.ts";

/** What the beacon sends: the page (path and query, so `?ref=` is seen) and the page's own referrer. */
export const hitInput = z.object({
  path: z.string().trim().min(1, "The path is missing.").max(2048, "The path is too long.").startsWith("/"),
  referrer: z.string().max(2048, "The referrer is too long.").optional().default(""),
});

export type { AnalyticsHit } from "#worker/queues/messages.ts";

export const isAnalyticsHit = (body: unknown): body is AnalyticsHit =>
  typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "analytics-hit";

/** The widest range one summary may ask for (the retention's default, and a day). */
export const MAX_RANGE_DAYS = 731;
/** Rows per list of the summary (top posts, sources, countries, devices, browsers). */
export const TOP_N = 10;
/** The "last 30 minutes" counter's window, and how long its minute buckets are kept. */
export const RECENT_MINUTES = 30;
export const RECENT_KEEP_MINUTES = 60;

export const DAY_MS = 86_400_000;
export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => utcDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD.")
  .refine((d) => utcDay(Date.parse(`${d}T00:00:00Z`) || 0) === d, "That date does not exist.");

/** GET /api/analytics/summary's query (and the dashboard's): a range of UTC days, optionally one post. */
export const summaryQuery = z
  .object({
    from: isoDay.optional(),
    to: isoDay.optional(),
    post: z.string().refine(isIdShaped, "Unknown post.").optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "The range ends before it starts.", path: ["to"] })
  .refine((q) => !q.from || !q.to || daysBetween(q.from, q.to) <= MAX_RANGE_DAYS, {
    message: `Ask for at most ${MAX_RANGE_DAYS} days.`,
    path: ["from"],
  });
export type SummaryQuery = z.input<typeof summaryQuery>;

const counts = { pageviews: z.number().int(), visitors: z.number().int() };
const row = z.object({ key: z.string(), ...counts });
const day = z.object({ date: z.string(), ...counts });

/** The summary's answer: totals, a day-by-day series, the previous period of the same length, and top lists. */
export const summaryResponse = z.object({
  scope: z.enum(["site", "writer", "post"]),
  /** The post asked about, if any. */
  post: z.object({ id: z.string(), title: z.string() }).nullable(),
  from: z.string(),
  to: z.string(),
  ...counts,
  previous: z.object({ from: z.string(), to: z.string(), ...counts, series: z.array(day) }),
  series: z.array(day),
  topPosts: z.array(z.object({ id: z.string(), title: z.string(), ...counts })),
  sources: z.array(row),
  /** The sites behind search, social and fediverse, keyed "group:host" ("social:news.ycombinator.com"). */
  sites: z.array(row),
  countries: z.array(row),
  devices: z.array(row),
  browsers: z.array(row),
});
export type Summary = z.infer<typeof summaryResponse>;
export type SummaryRow = z.infer<typeof row>;
