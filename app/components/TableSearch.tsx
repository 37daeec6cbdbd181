import { Form, Link, useLocation } from "@remix-run/react";
import { MAX_SEARCH_CHARS } from "#worker/services/shared/limits.ts";
import { buttonClass } from "./ui";

/**
 * The search box above an admin table: a GET form (?q=), so it works without JavaScript and a search
 * can be shared; submitting starts again at page 1. "Clear" is shown while a search is on.
 */
export function TableSearch({ q, label, placeholder }: { q: string; label: string; placeholder: string }) {
  const location = useLocation();
  return (
    <Form method="get" role="search" className="mb-4 flex max-w-xl flex-wrap items-center gap-2" key={location.search}>
      <label htmlFor="table-search" className="sr-only">
        {label}
      </label>
      <input
        id="table-search"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={MAX_SEARCH_CHARS}
        placeholder={placeholder}
        className="block h-10 min-w-0 flex-1 rounded-lg border border-gray-300 bg-white px-3 text-sm text-ink shadow-sm placeholder:text-gray-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
      />
      <button type="submit" className={buttonClass({ size: "sm", className: "h-10" })}>
        Search
      </button>
      {q ? (
        <Link to={location.pathname} className="text-sm font-medium text-brand-700 hover:underline">
          Clear
        </Link>
      ) : null}
    </Form>
  );
}
