import { useId } from "react";

const W = 600;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 36 };

/** "2026-11-22" as "Nov 22" (UTC, as the days are counted). */
const short = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** A round top for the axis: 1, 2, 5, 10, 20, 50... at or above the highest day. */
function niceMax(max: number): number {
  if (max <= 4) return 4;
  const step = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * step).find((n) => n >= max) ?? 10 * step;
}

/**
 * Views per day as a bar chart, drawn as SVG on the server (no chart library, no script). Screen readers
 * get its title and a summary, and anyone can open the same numbers as a table.
 */
export function ViewsChart({ daily, label }: { daily: { day: string; views: number }[]; label: string }) {
  const id = useId();
  const max = niceMax(Math.max(0, ...daily.map((d) => d.views)));
  const total = daily.reduce((a, d) => a + d.views, 0);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, daily.length);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const best = daily.reduce((a, d) => (d.views > a.views ? d : a), daily[0] ?? { day: "", views: 0 });
  const first = daily[0]?.day ?? "";
  const last = daily[daily.length - 1]?.day ?? "";
  const summary =
    total === 0
      ? `No views from ${short(first)} to ${short(last)}.`
      : `${total} ${total === 1 ? "view" : "views"} from ${short(first)} to ${short(last)}; the busiest day was ${short(best.day)} with ${best.views}.`;

  return (
    <figure className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
      <figcaption className="text-sm font-semibold text-ink">{label}</figcaption>
      {/*
        On phones the chart keeps a readable size and scrolls sideways instead of shrinking its labels; the
        box is a named tab stop, so it can be reached and scrolled with the arrow keys.
      */}
      <div className="mt-3 overflow-x-auto rounded-lg" tabIndex={0} role="region" aria-label={`${label}, chart`}>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-labelledby={`${id}-t ${id}-d`}
          className="h-auto w-full min-w-[30rem]"
          data-testid="views-chart"
        >
          <title id={`${id}-t`}>{label}</title>
          <desc id={`${id}-d`}>{summary}</desc>
          {[0, max / 2, max].map((v) => (
            <g key={v}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="#e5e7eb" strokeWidth={1} />
              <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize={11} fill="#6b7280">
                {v}
              </text>
            </g>
          ))}
          {daily.map((d, i) => {
            const h = (d.views / max) * innerH;
            return (
              <rect
                key={d.day}
                x={PAD.left + i * slot + slot * 0.15}
                y={PAD.top + innerH - h}
                width={slot * 0.7}
                height={h}
                rx={2}
                fill="#4f46e5"
              >
                <title>{`${short(d.day)}: ${d.views} views`}</title>
              </rect>
            );
          })}
          <text x={PAD.left} y={H - 6} fontSize={11} fill="#6b7280">
            {short(first)}
          </text>
          <text x={W - PAD.right} y={H - 6} textAnchor="end" fontSize={11} fill="#6b7280">
            {short(last)}
          </text>
        </svg>
      </div>
      <p className="mt-2 text-sm text-gray-600">{summary}</p>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">Show the numbers as a table</summary>
        <table className="mt-2 w-full max-w-xs text-left">
          <caption className="sr-only">{label}</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 font-semibold text-gray-600">
                Day
              </th>
              <th scope="col" className="py-1 text-right font-semibold text-gray-600">
                Views
              </th>
            </tr>
          </thead>
          <tbody>
            {daily.map((d) => (
              <tr key={d.day} className="border-t border-gray-100">
                <td className="py-1">{short(d.day)}</td>
                <td className="py-1 text-right tabular-nums">{d.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
