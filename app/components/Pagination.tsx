import { Link, useLocation } from "@remix-run/react";
import { pageWindow } from "#worker/services/shared/pagination.ts";

/**
 * Prev, numbered and Next links that keep the other query parameters; the page lives in the URL
 * (?page=2), so it can be shared and works without JavaScript. Prev is disabled on page 1, Next on the last.
 * A handful of numbers at any size: the first, the last, the current page and its neighbours, and an
 * ellipsis for each gap (1 … 4 5 6 … 12500).
 */
export function Pagination({
  page,
  pages,
  label = "Pagination",
  param = "page",
}: {
  page: number;
  pages: number;
  label?: string;
  /** The query parameter that carries this list's page (two lists on one page use two). */
  param?: string;
}) {
  const location = useLocation();
  const href = (n: number) => {
    const params = new URLSearchParams(location.search);
    if (n === 1) params.delete(param);
    else params.set(param, String(n));
    const qs = params.toString();
    return `${location.pathname}${qs ? `?${qs}` : ""}`;
  };
  const base = "inline-flex h-10 min-w-10 items-center justify-center rounded-lg border px-3 text-sm font-medium";
  const idle = "border-gray-300 bg-white text-gray-800 hover:bg-gray-50";
  const disabled = "cursor-not-allowed border-gray-200 bg-gray-50 text-gray-400";
  const edge = (to: number, text: string, off: boolean) =>
    off ? (
      <span role="link" aria-disabled="true" className={`${base} ${disabled}`}>
        {text}
      </span>
    ) : (
      <Link to={href(to)} className={`${base} ${idle}`} preventScrollReset={false}>
        {text}
      </Link>
    );
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-center gap-2">
      {edge(page - 1, "Prev", page <= 1)}
      {pageWindow(page, pages).map((n, i) =>
        n === "gap" ? (
          <span
            key={`gap-${i}`}
            aria-hidden="true"
            className="inline-flex h-10 min-w-6 items-center justify-center text-gray-500"
          >
            …
          </span>
        ) : (
          <Link
            key={n}
            to={href(n)}
            aria-current={n === page ? "page" : undefined}
            className={`${base} ${n === page ? "border-brand-600 bg-brand-600 text-white" : idle}`}
          >
            {n}
          </Link>
        ),
      )}
      {edge(page + 1, "Next", page >= pages)}
    </nav>
  );
}
