import type { AppLoadContext } from "@remix-run/cloudflare";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { addDays } from "#worker/services/analytics/model.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";

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

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A chosen range made sensible before it is asked for, with what was done said beside the fields
 * (issue 47: a reversed range was a full-page 400): "From" after "To" swaps them, and a "To" after today
 * ends today (days to come have no reads, so they were charted as zeros).
 */
export function tidyRange(
  query: { from?: string; to?: string },
  now = Date.now(),
): { from?: string; to?: string; notice: string | null } {
  let { from, to } = query;
  const notes: string[] = [];
  if (from && to && DAY.test(from) && DAY.test(to) && from > to) {
    [from, to] = [to, from];
    notes.push("“From” was after “To”, so the two dates were swapped.");
  }
  const today = new Date(now).toISOString().slice(0, 10);
  if (to && DAY.test(to) && to > today) {
    to = today;
    notes.push("“To” was in the future: the range ends today.");
    if (from && DAY.test(from) && from > today) from = today;
  }
  return { from, to, notice: notes.length ? notes.join(" ") : null };
}

/** Everything an analytics page shows, for the signed-in person's scope (or one of their posts). */
export async function loadAnalytics(context: AppLoadContext, request: Request, post?: string) {
  const user = signedInOrRedirect(context, request);
  const url = new URL(request.url);
  const { range, ...asked } = rangeQuery(url);
  const { notice, ...query } = tidyRange(asked);
  const analytics = context.services.analytics;
  const load = (q: { from?: string; to?: string }) =>
    loadOr404(() =>
      Promise.all([
        analytics.summary(user, { ...q, post }),
        analytics.recent(user, post),
        analytics.newsletter(user, post),
      ]),
    );
  let rangeError: string | null = null;
  let answer;
  try {
    answer = await load(query);
  } catch (err) {
    // A range the service refuses is answered beside the fields, over the default range: the dashboard stays.
    if (!(err instanceof ValidationError) || range !== null) throw err;
    rangeError = Object.values(err.fields ?? {})[0] ?? err.message;
    answer = await load(rangeQuery(new URL(url.pathname, url.origin)));
  }
  const [summary, recent, newsletter] = answer;
  const csv = new URLSearchParams({ from: summary.from, to: summary.to, ...(post ? { post } : {}) });
  return {
    summary,
    recent,
    newsletter,
    range: rangeError ? 30 : range,
    csvHref: `/dashboard/analytics.csv?${csv}`,
    rangeNotice: rangeError ?? notice,
    asked: rangeError ? asked : null,
  };
}
