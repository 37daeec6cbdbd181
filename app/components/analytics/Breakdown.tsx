import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

export interface BreakdownRow {
  key: string;
  label: ReactNode;
  href?: string;
  pageviews: number;
  visitors: number;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** One ranked list (top posts, sources, countries...) as a table, each row's share drawn as a bar behind it. */
export function Breakdown({
  title,
  rows,
  empty,
  heads = ["Visitors", "Views"],
}: {
  title: string;
  rows: BreakdownRow[];
  empty: string;
  /** The two number columns' headings (visitors, pageviews); null drops the second column. */
  heads?: [string, string | null];
}) {
  const max = Math.max(1, ...rows.map((r) => r.visitors || r.pageviews));
  return (
    <section className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm" aria-label={title}>
      <h2 className="text-sm font-semibold text-ink">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-gray-600">{empty}</p>
      ) : (
        <table className="mt-2 w-full table-fixed text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="text-xs text-gray-600">
              <th scope="col" className="py-1 font-semibold">
                Name
              </th>
              <th scope="col" className="w-24 py-1 text-right font-semibold">
                {heads[0]}
              </th>
              {heads[1] ? (
                <th scope="col" className="w-20 py-1 text-right font-semibold">
                  {heads[1]}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className="border-t border-gray-100">
                <th scope="row" className="relative py-1.5 pr-2 font-normal">
                  <span
                    aria-hidden="true"
                    className="absolute inset-y-1 left-0 rounded bg-brand-50"
                    style={{ width: `${Math.max(2, ((r.visitors || r.pageviews) / max) * 100)}%` }}
                  />
                  <span className="relative block truncate px-1.5 text-gray-800">
                    {r.href ? (
                      <Link to={r.href} className="hover:text-brand-700 hover:underline">
                        {r.label}
                      </Link>
                    ) : (
                      r.label
                    )}
                  </span>
                </th>
                <td className="py-1.5 text-right tabular-nums">{fmt(r.visitors)}</td>
                {heads[1] ? <td className="py-1.5 text-right tabular-nums">{fmt(r.pageviews)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const SOURCE_NAMES: Record<string, string> = {
  direct: "Direct",
  search: "Search engines",
  social: "Social sites",
  fediverse: "Fediverse",
  newsletter: "Newsletter",
};
export const sourceName = (key: string) => SOURCE_NAMES[key] ?? key;

const DEVICE_NAMES: Record<string, string> = { desktop: "Desktop", mobile: "Phone", tablet: "Tablet" };
export const deviceName = (key: string) => DEVICE_NAMES[key] ?? key;

/** "FR" as "France" (the runtime's own names), "unknown" as "Unknown". */
export function countryName(code: string): string {
  if (code === "unknown") return "Unknown";
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}
