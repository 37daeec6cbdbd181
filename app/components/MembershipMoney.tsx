import { Link } from "@remix-run/react";
import { formatMoney } from "#app/lib/money.ts";

/** The admin's Dashboard → Memberships, above the tiers: the money over time (MRR, sign-ups and endings, posts). */

const monthName = (key: string) =>
  new Date(`${key}-01T00:00:00Z`).toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });

/**
 * Bars per month, one per series side by side, as SVG drawn on the server (no chart library, no script): an image
 * with its title and a summary for screen readers; the numbers themselves are in the table beside each chart.
 */
function MonthBars({
  id,
  title,
  summary,
  months,
  series,
  format = String,
}: {
  id: string;
  title: string;
  summary: string;
  months: string[];
  series: { values: number[]; className: string }[];
  /** The top of the scale, as people read it. */
  format?: (value: number) => string;
}) {
  const W = 600;
  const H = 200;
  const top = Math.max(4, ...series.flatMap((s) => s.values));
  const slot = W / Math.max(1, months.length);
  const gap = slot * 0.04;
  const width = (slot * 0.7 - gap * (series.length - 1)) / Math.max(1, series.length);
  const bar = (value: number) => (value / top) * (H - 24);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="h-auto w-full">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      <line x1={0} x2={W} y1={H - 20} y2={H - 20} className="stroke-gray-300" />
      <text x={2} y={14} fontSize={14} className="fill-gray-600">
        {format(top)}
      </text>
      {months.map((month, i) => (
        <g key={month}>
          {series.map((s, j) => (
            <rect
              key={j}
              x={i * slot + slot * 0.15 + j * (width + gap)}
              y={H - 20 - bar(s.values[i] ?? 0)}
              width={width}
              height={bar(s.values[i] ?? 0)}
              className={s.className}
            />
          ))}
          <text x={i * slot + slot / 2} y={H - 4} textAnchor="middle" fontSize={14} className="fill-gray-600">
            {monthName(month).slice(0, 3)}
          </text>
        </g>
      ))}
    </svg>
  );
}

/**
 * Monthly recurring revenue at the end of each of the last twelve months (this month: as it stands), a chart per
 * currency (amounts in different currencies are never added up) and every number in the table beside them.
 */
export function MrrOverTime({ months }: { months: { month: string; currencies: Record<string, number> }[] }) {
  const currencies = [...new Set(months.flatMap((m) => Object.keys(m.currencies)))].sort();
  const first = months[0]?.month ?? "";
  const last = months[months.length - 1]?.month ?? "";
  return (
    <section aria-labelledby="mrr-heading" className="mb-8">
      <h2 id="mrr-heading" className="mb-3 text-xl font-bold text-ink">
        Monthly recurring revenue
      </h2>
      {currencies.length === 0 ? (
        <p className="text-sm text-gray-700">No member has paid yet: the monthly recurring revenue is 0.</p>
      ) : (
        <div className="grid gap-4">
          <div className="grid gap-4">
            {currencies.map((currency) => {
              const values = months.map((m) => m.currencies[currency] ?? 0);
              const money = (minor: number) => formatMoney(minor, currency);
              const summary = `Monthly recurring revenue in ${currency.toUpperCase()}: ${money(values[0] ?? 0)} in ${monthName(
                first,
              )}, ${money(values[values.length - 1] ?? 0)} in ${monthName(last)}, at most ${money(Math.max(...values))}.`;
              return (
                <figure key={currency} className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
                  <MonthBars
                    id={`mrr-${currency}`}
                    title={`Monthly recurring revenue in ${currency.toUpperCase()} per month`}
                    summary={summary}
                    months={months.map((m) => m.month)}
                    series={[{ values, className: "fill-brand-600" }]}
                    format={money}
                  />
                  <figcaption className="mt-2 text-sm text-gray-700">
                    MRR in {currency.toUpperCase()}, at each month&rsquo;s end
                  </figcaption>
                </figure>
              );
            })}
          </div>
          <div
            className="max-h-96 overflow-auto rounded-2xl border border-gray-200 bg-white p-4"
            tabIndex={0}
            role="region"
            aria-label="Monthly recurring revenue per month, as a table"
          >
            <table className="w-full text-sm" data-mrr-table="">
              <caption className="sr-only">Monthly recurring revenue per month and currency</caption>
              <thead>
                <tr className="text-left text-gray-600">
                  <th scope="col">Month</th>
                  <th scope="col">Currency</th>
                  <th scope="col" className="text-right">
                    MRR
                  </th>
                </tr>
              </thead>
              <tbody>
                {months.flatMap((m) =>
                  currencies.map((currency) => (
                    <tr key={`${m.month}-${currency}`} className="border-t border-gray-200">
                      <th scope="row" className="py-1 text-left font-normal text-gray-800">
                        {monthName(m.month)}
                      </th>
                      <td>{currency.toUpperCase()}</td>
                      <td className="text-right tabular-nums">{formatMoney(m.currencies[currency] ?? 0, currency)}</td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}

/**
 * Paid sign-ups and ended subscriptions per month (the last twelve), as an SVG bar chart drawn on the server
 * with its numbers in a table beside it, and paid sign-ups per post (the post a reader came from).
 */
export function MoneyOverTime({
  months,
  posts,
}: {
  months: { month: string; joined: number; ended: number }[];
  posts: { post_id: string; title: string | null; signups: number }[];
}) {
  const joined = months.reduce((a, m) => a + m.joined, 0);
  const ended = months.reduce((a, m) => a + m.ended, 0);
  const summary = `${joined} paid ${joined === 1 ? "sign-up" : "sign-ups"} and ${ended} ended ${
    ended === 1 ? "subscription" : "subscriptions"
  } from ${monthName(months[0]!.month)} to ${monthName(months[months.length - 1]!.month)}.`;
  return (
    <section aria-labelledby="money-heading" className="mb-8">
      <h2 id="money-heading" className="mb-3 text-xl font-bold text-ink">
        Sign-ups and endings
      </h2>
      <div className="grid gap-4">
        <figure className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
          <MonthBars
            id="money"
            title="Paid sign-ups and ended subscriptions per month"
            summary={summary}
            months={months.map((m) => m.month)}
            series={[
              { values: months.map((m) => m.joined), className: "fill-brand-600" },
              { values: months.map((m) => m.ended), className: "fill-gray-400" },
            ]}
          />
          <figcaption className="mt-2 flex gap-4 text-sm text-gray-700">
            <span>
              <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-sm bg-brand-600" />
              Paid sign-ups
            </span>
            <span>
              <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-sm bg-gray-400" />
              Ended
            </span>
          </figcaption>
        </figure>
        <div
          className="max-h-80 overflow-auto rounded-2xl border border-gray-200 bg-white p-4"
          tabIndex={0}
          role="region"
          aria-label="Sign-ups and endings per month, as a table"
        >
          <table className="w-full text-sm">
            <caption className="sr-only">Paid sign-ups and ended subscriptions per month</caption>
            <thead>
              <tr className="text-left text-gray-600">
                <th scope="col">Month</th>
                <th scope="col" className="text-right">
                  Paid sign-ups
                </th>
                <th scope="col" className="text-right">
                  Ended
                </th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr key={m.month} className="border-t border-gray-200">
                  <th scope="row" className="py-1 text-left font-normal text-gray-800">
                    {monthName(m.month)}
                  </th>
                  <td className="text-right tabular-nums">{m.joined}</td>
                  <td className="text-right tabular-nums">{m.ended}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <h3 className="mb-2 mt-6 text-lg font-bold text-ink">Paid sign-ups per post</h3>
      {posts.length === 0 ? (
        <p className="text-sm text-gray-700">No paid sign-up has come from a post yet.</p>
      ) : (
        <table className="w-full max-w-2xl text-sm" data-signups-per-post="">
          <caption className="sr-only">Paid sign-ups per post</caption>
          <thead>
            <tr className="text-left text-gray-600">
              <th scope="col">Post</th>
              <th scope="col" className="text-right">
                Paid sign-ups
              </th>
            </tr>
          </thead>
          <tbody>
            {posts.map((p) => (
              <tr key={p.post_id} className="border-t border-gray-200">
                <th scope="row" className="py-1 text-left font-normal">
                  {p.title ? (
                    <Link to={`/blogs/${p.post_id}`} className="text-brand-700 underline">
                      {p.title}
                    </Link>
                  ) : (
                    "A deleted post"
                  )}
                </th>
                <td className="text-right tabular-nums">{p.signups}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
