import { useId, useState } from "react";

export interface TrafficDay {
  date: string;
  pageviews: number;
  visitors: number;
}

const W = 640;
const H = 220;
const PAD = { top: 14, right: 12, bottom: 26, left: 40 };

/** "2026-11-22" as "Nov 22" (UTC, as the days are counted). */
export const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** A round top for the axis: 1, 2, 5, 10, 20, 50... at or above the highest value. */
function niceMax(max: number): number {
  if (max <= 4) return 4;
  const step = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * step).find((n) => n >= max) ?? 10 * step;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const count = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;
const numbers = (d: TrafficDay) =>
  `${shortDay(d.date)}: ${count(d.pageviews, "pageview", "pageviews")}, ${count(d.visitors, "visitor", "visitors")}`;

/**
 * Pageviews and visitors per day as a hand-drawn SVG line chart, with the previous period's pageviews
 * dashed behind them. Every day is a point a keyboard can reach (Tab), which names its numbers; the same
 * numbers stand in a table beside the chart. Colours come from the theme's classes (currentColor), so
 * the chart follows dark mode. No chart library: this module is only in the analytics pages' chunks.
 */
export function TrafficChart({
  series,
  previous,
  label,
}: {
  series: TrafficDay[];
  previous: TrafficDay[];
  label: string;
}) {
  const id = useId();
  const [focused, setFocused] = useState<number | null>(null);
  const max = niceMax(Math.max(0, ...series.map((d) => d.pageviews), ...previous.map((d) => d.pageviews)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (series.length <= 1 ? innerW / 2 : (i / (series.length - 1)) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const line = (values: number[]) =>
    values.map((v, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
  const total = series.reduce((a, d) => a + d.pageviews, 0);
  const first = series[0]?.date ?? "";
  const last = series[series.length - 1]?.date ?? "";
  const summary =
    total === 0
      ? `No pageviews from ${shortDay(first)} to ${shortDay(last)}.`
      : `${count(total, "pageview", "pageviews")} and ${count(
          series.reduce((a, d) => a + d.visitors, 0),
          "visitor",
          "visitors",
        )} from ${shortDay(first)} to ${shortDay(last)}; the previous period had ${count(
          previous.reduce((a, d) => a + d.pageviews, 0),
          "pageview",
          "pageviews",
        )}.`;
  const tip = focused === null ? null : series[focused];

  return (
    <figure className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
      <figcaption className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="font-semibold text-ink">{label}</span>
        <span className="flex flex-wrap gap-3 text-xs text-gray-600" aria-hidden="true">
          <span className="flex items-center gap-1">
            <span className="inline-block h-0.5 w-4 bg-brand-600 dark:bg-brand-500" /> Pageviews
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block h-0.5 w-4 bg-emerald-600 dark:bg-emerald-400" /> Visitors
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block w-4 border-t-2 border-dashed border-gray-400" /> Previous period
          </span>
        </span>
      </figcaption>
      <div className="mt-3 grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="relative min-w-0">
          {/* On phones the chart keeps a readable size and scrolls sideways rather than shrinking its labels; it
              opens on the newest day (issue 47: it opened on the oldest and hid the latest), and the keyboard can
              scroll it. */}
          <div
            className="overflow-x-auto"
            data-testid="chart-scroll"
            tabIndex={0}
            role="region"
            aria-label={`${label}: scrolls sideways`}
            ref={(el) => {
              if (el && el.dataset.started !== "1") {
                el.dataset.started = "1";
                el.scrollLeft = el.scrollWidth;
              }
            }}
          >
            <svg
              viewBox={`0 0 ${W} ${H}`}
              role="group"
              aria-labelledby={`${id}-t ${id}-d`}
              className="h-auto w-full min-w-[30rem]"
            >
              <title id={`${id}-t`}>{label}</title>
              <desc id={`${id}-d`}>{summary}</desc>
              {[0, max / 2, max].map((v) => (
                <g key={v} aria-hidden="true">
                  <line
                    x1={PAD.left}
                    x2={W - PAD.right}
                    y1={y(v)}
                    y2={y(v)}
                    className="stroke-gray-200"
                    strokeWidth={1}
                  />
                  <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize={11} className="fill-gray-500">
                    {fmt(v)}
                  </text>
                </g>
              ))}
              <g aria-hidden="true" fill="none" strokeWidth={2} strokeLinejoin="round" strokeLinecap="round">
                {previous.length === series.length ? (
                  <path d={line(previous.map((d) => d.pageviews))} className="stroke-gray-400" strokeDasharray="5 4" />
                ) : null}
                <path d={line(series.map((d) => d.visitors))} className="stroke-emerald-600 dark:stroke-emerald-400" />
                <path d={line(series.map((d) => d.pageviews))} className="stroke-brand-600 dark:stroke-brand-500" />
              </g>
              {series.map((d, i) => (
                <circle
                  key={d.date}
                  cx={x(i)}
                  cy={y(d.pageviews)}
                  r={focused === i ? 6 : series.length > 45 ? 2.5 : 4}
                  tabIndex={0}
                  role="img"
                  aria-label={numbers(d)}
                  onFocus={() => setFocused(i)}
                  onBlur={() => setFocused(null)}
                  onMouseEnter={() => setFocused(i)}
                  onMouseLeave={() => setFocused(null)}
                  className="cursor-pointer fill-brand-600 stroke-white outline-none dark:stroke-[#161e2e] focus-visible:stroke-ink dark:fill-brand-500"
                  strokeWidth={focused === i ? 3 : 1.5}
                  data-testid="chart-point"
                />
              ))}
              <text x={PAD.left} y={H - 6} fontSize={11} className="fill-gray-500" aria-hidden="true">
                {shortDay(first)}
              </text>
              <text
                x={W - PAD.right}
                y={H - 6}
                textAnchor="end"
                fontSize={11}
                className="fill-gray-500"
                aria-hidden="true"
              >
                {shortDay(last)}
              </text>
            </svg>
          </div>
          <p aria-live="polite" className="mt-1 min-h-5 text-sm text-gray-700">
            {tip ? numbers(tip) : summary}
          </p>
        </div>
        <div
          className="max-h-64 overflow-y-auto rounded-lg border border-gray-100"
          tabIndex={0}
          role="region"
          aria-label={`${label}, table`}
        >
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{label}</caption>
            <thead className="sticky top-0 bg-white">
              <tr>
                <th scope="col" className="px-3 py-1.5 font-semibold text-gray-600">
                  Day
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-semibold text-gray-600">
                  Pageviews
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-semibold text-gray-600">
                  Visitors
                </th>
              </tr>
            </thead>
            <tbody>
              {[...series].reverse().map((d) => (
                <tr key={d.date} className="border-t border-gray-100">
                  <th scope="row" className="px-3 py-1 font-normal text-gray-700">
                    {shortDay(d.date)}
                  </th>
                  <td className="px-3 py-1 text-right tabular-nums">{fmt(d.pageviews)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{fmt(d.visitors)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </figure>
  );
}
