import type { Actor } from "#worker/services/shared/policy.ts";
import { summaryCsv } from "#worker/services/analytics/csv.ts";
import { foldHits } from "#worker/services/analytics/fold.ts";
import { newsletterReport } from "#worker/services/analytics/newsletter.ts";
import { createAnalyticsReports, scopeOf } from "#worker/services/analytics/report.ts";
import { pruneAnalytics } from "#worker/services/analytics/retention.ts";
import type { AnalyticsHit, SummaryQuery } from "#worker/services/analytics/model.ts";
import type { Kernel } from "#worker/services/kernel.ts";

// The API's schemas, for the OpenAPI document.
export { summaryQuery, summaryResponse } from "#worker/services/analytics/model.ts";
export type { Summary, SummaryQuery } from "#worker/services/analytics/model.ts";

/**
 * Analytics kept in the site's own D1 (docs/decisions/038): hits come through the queue and are folded
 * into daily rollups; writers and admins read summaries, the live counter, the newsletter's part and CSV.
 * Accepting a beacon's hit is createAnalyticsIngest (worker/services/analytics/ingest.ts), which runs
 * before the session layer.
 */
export function createAnalyticsService(k: Kernel) {
  const { db, env } = k;
  const reports = createAnalyticsReports(db);
  return {
    /** The queue consumer's work: one D1 batch per message batch. */
    fold: (hits: AnalyticsHit[]) => foldHits(db, hits),
    summary: reports.summary,
    recent: reports.recent,
    async newsletter(actor: Actor | null, post?: string) {
      return newsletterReport(db, await scopeOf(db, actor, post));
    },
    async csv(actor: Actor | null, query: SummaryQuery | Record<string, unknown>, now = Date.now()) {
      return summaryCsv(await reports.summary(actor, query, now));
    },
    prune: (now = Date.now()) => pruneAnalytics(db, env, now),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
