import { Form, Link } from "@remix-run/react";
import { Breakdown, countryName, deviceName, sourceName } from "#app/components/analytics/Breakdown.tsx";
import { shortDay, TrafficChart } from "#app/components/analytics/TrafficChart.tsx";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import type { NewsletterGain, NewsletterSent } from "#worker/services/analytics/newsletter.ts";
import type { Summary } from "#worker/services/analytics/model.ts";

const RANGES = [7, 30, 90] as const;
const fmt = (n: number) => n.toLocaleString("en-US");

/** "+12%" / "−5%" / "new" against the previous period, in words for screen readers too. */
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "no change" : "new";
  const pct = Math.round(((now - before) / before) * 100);
  return pct === 0 ? "no change" : `${pct > 0 ? "+" : "−"}${Math.abs(pct)}%`;
}

function Tile({ label, value, before, days }: { label: string; value: number; before: number; days: number }) {
  return (
    <div className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
      <dt className="text-xs font-semibold uppercase tracking-wide text-gray-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums text-ink">{fmt(value)}</dd>
      <dd className="mt-1 text-xs text-gray-600">
        Previous {days} days: <span className="tabular-nums">{fmt(before)}</span> ({change(value, before)})
      </dd>
    </div>
  );
}

/**
 * The analytics page's body, the same for the site (admin), a writer's posts and one post: the range
 * chooser, the live count, totals against the previous period, the chart and its table, the top lists,
 * what the newsletter brought, and the CSV export.
 */
export function AnalyticsReport({
  summary,
  recent,
  newsletter,
  range,
  csvHref,
  basePath,
  rangeNotice = null,
  asked = null,
}: {
  summary: Summary;
  recent: number;
  newsletter: { sent: NewsletterSent[]; gained: NewsletterGain[] };
  range: number | null;
  csvHref: string;
  basePath: string;
  /** What was done with the chosen dates (swapped, ended today), or why they were not used: said beside them. */
  rangeNotice?: string | null;
  /** The dates as asked, kept in the fields when the range was refused (the page shows the default range). */
  asked?: { from?: string; to?: string } | null;
}) {
  const days = summary.series.length;
  const title = summary.post ? `Analytics: ${summary.post.title}` : "Analytics";
  const whose =
    summary.scope === "site" ? "Every page of the site." : summary.scope === "writer" ? "Your posts." : "This post.";
  return (
    <>
      <DashboardHeader
        title={title}
        description={`${whose} Day by day: visitors and views, and where they came from (the sources, with the sites behind search and social), their countries, devices and browsers; all-time likes, comments and saves are in Stats. Counted without cookies and without keeping anyone's address; bots, readers who ask not to be tracked (Do Not Track, Global Privacy Control) and writers reading their own posts are not counted. Days are UTC.`}
        actions={
          <>
            {summary.post ? (
              <Link to="/dashboard/analytics" className={buttonSecondary}>
                All posts
              </Link>
            ) : null}
            <a href={csvHref} className={buttonSecondary} download>
              Export CSV
            </a>
          </>
        }
      />
      <div className="mb-5 flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <nav aria-label="Range" className="flex flex-wrap gap-2">
          {RANGES.map((r) => (
            <Link
              key={r}
              to={`${basePath}?range=${r}`}
              aria-current={range === r ? "page" : undefined}
              className={`rounded-full px-3 py-1.5 text-sm font-medium ${
                range === r ? "bg-brand-600 text-white" : "border border-gray-200 text-gray-700 hover:bg-gray-50"
              }`}
            >
              {r} days
            </Link>
          ))}
        </nav>
        <Form method="get" action={basePath} className="flex flex-wrap items-end gap-2 text-sm">
          <label className="flex flex-col gap-1 text-gray-700">
            From
            <input
              type="date"
              name="from"
              defaultValue={asked?.from ?? summary.from}
              aria-describedby={rangeNotice ? "range-notice" : undefined}
              required
              className="rounded-lg border border-gray-300 bg-white px-2 py-1.5 text-ink"
            />
          </label>
          <label className="flex flex-col gap-1 text-gray-700">
            To
            <input
              type="date"
              name="to"
              defaultValue={asked?.to ?? summary.to}
              aria-describedby={rangeNotice ? "range-notice" : undefined}
              required
              className="rounded-lg border border-gray-300 bg-white px-2 py-1.5 text-ink"
            />
          </label>
          <button type="submit" className={buttonSecondary}>
            Show
          </button>
          {rangeNotice ? (
            <p
              id="range-notice"
              role={asked ? "alert" : "status"}
              className={`basis-full text-sm ${asked ? "text-red-700 dark:text-red-300" : "text-amber-800 dark:text-amber-300"}`}
            >
              {rangeNotice}
            </p>
          ) : null}
        </Form>
      </div>
      <p className="mb-4 text-sm text-gray-700" data-testid="analytics-recent">
        <span className="mr-1.5 inline-block h-2 w-2 rounded-full bg-emerald-500" aria-hidden="true" />
        <strong className="tabular-nums">{fmt(recent)}</strong> {recent === 1 ? "pageview" : "pageviews"} in the last 30
        minutes
      </p>
      <dl className="mb-5 grid grid-cols-2 gap-3">
        <Tile label="Visitors" value={summary.visitors} before={summary.previous.visitors} days={days} />
        <Tile label="Pageviews" value={summary.pageviews} before={summary.previous.pageviews} days={days} />
      </dl>
      <TrafficChart
        series={summary.series}
        previous={summary.previous.series}
        label={`Pageviews and visitors per day, ${shortDay(summary.from)} to ${shortDay(summary.to)}`}
      />
      <div className="mt-5 grid gap-4 md:grid-cols-2">
        {summary.scope !== "post" ? (
          <Breakdown
            title="Top posts"
            empty="No post was read in this range."
            rows={summary.topPosts.map((p) => ({
              key: p.id,
              label: p.title,
              href: `/dashboard/analytics/${p.id}`,
              pageviews: p.pageviews,
              visitors: p.visitors,
            }))}
          />
        ) : null}
        <Breakdown
          title="Sources"
          empty="No reads in this range."
          rows={summary.sources.map((r) => ({ ...r, label: sourceName(r.key) }))}
        />
        <Breakdown
          title="Sites in search, social and the fediverse"
          empty="No reads came from a search engine, a social site or the fediverse in this range."
          rows={summary.sites.map((r) => {
            const [group = "", host = r.key] = r.key.split(/:(.*)/s);
            // The host fits the narrow column; its group is said to screen readers (the title says it too).
            return {
              ...r,
              label: (
                <>
                  {host}
                  <span className="sr-only"> ({sourceName(group)})</span>
                </>
              ),
            };
          })}
        />
        <Breakdown
          title="Countries"
          empty="No reads in this range."
          rows={summary.countries.map((r) => ({ ...r, label: countryName(r.key) }))}
        />
        <Breakdown
          title="Devices"
          empty="No reads in this range."
          rows={summary.devices.map((r) => ({ ...r, label: deviceName(r.key) }))}
        />
        <Breakdown
          title="Browsers"
          empty="No reads in this range."
          rows={summary.browsers.map((r) => ({ ...r, label: r.key }))}
        />
      </div>
      <NewsletterPart newsletter={newsletter} />
    </>
  );
}

function NewsletterPart({ newsletter }: { newsletter: { sent: NewsletterSent[]; gained: NewsletterGain[] } }) {
  return (
    <section aria-labelledby="analytics-newsletter" className="mt-8">
      <h2 id="analytics-newsletter" className="mb-3 text-lg font-semibold text-ink">
        What the newsletter brought
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <Breakdown
          title="Reads from the newsletter, per post sent"
          empty="No post has gone out to the newsletter yet."
          heads={["Subscribers gained", "Reads"]}
          rows={newsletter.sent.map((s) => ({
            key: s.id,
            label: `${s.title} (sent ${new Date(s.sentAt).toISOString().slice(0, 10)})`,
            href: `/dashboard/analytics/${s.id}`,
            pageviews: s.reads,
            visitors: s.gained,
          }))}
        />
        <Breakdown
          title="Subscribers gained, per post"
          empty="No subscriber has come from a post yet."
          heads={["Subscribers", null]}
          rows={newsletter.gained.map((g) => ({
            key: g.id,
            label: g.title,
            href: `/dashboard/analytics/${g.id}`,
            pageviews: g.gained,
            visitors: g.gained,
          }))}
        />
      </div>
    </section>
  );
}
