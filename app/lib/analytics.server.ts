import type { AppLoadContext } from "@remix-run/cloudflare";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { addDays } from "#worker/services/analytics/model.ts";

/** The quick ranges the page offers; any other range is chosen with the two dates. */
export const RANGES = [7, 30, 90] as const;

/**
 * The range a dashboard URL asks for: `?range=7|30|90` (days up to today), or `?from=&to=` (a chosen
 * range, checked by the service), 30 days by default.
 */
export function rangeQuery(url: URL, now = Date.now()): { from?: string; to?: string; range: number | null } {
  const from = url.searchParams.get("from") || undefined;
  const to = url.searchParams.get("to") || undefined;
  if (from || to) return { from, to, range: null };
  const asked = Number(url.searchParams.get("range"));
  const range = (RANGES as readonly number[]).includes(asked) ? asked : 30;
  const today = new Date(now).toISOString().slice(0, 10);
  return { from: addDays(today, 1 - range), to: today, range };
}

/** Everything an analytics page shows, for the signed-in person's scope (or one of their posts). */
export async function loadAnalytics(context: AppLoadContext, request: Request, post?: string) {
  const user = signedInOrRedirect(context, request);
  const url = new URL(request.url);
  const { range, ...query } = rangeQuery(url);
  const analytics = context.services.analytics;
  const [summary, recent, newsletter] = await loadOr404(() =>
    Promise.all([
      analytics.summary(user, { ...query, post }),
      analytics.recent(user, post),
      analytics.newsletter(user, post),
    ]),
  );
  const csv = new URLSearchParams({ from: summary.from, to: summary.to, ...(post ? { post } : {}) });
  return { summary, recent, newsletter, range, csvHref: `/dashboard/analytics.csv?${csv}` };
}
