import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { MAX_SEARCH_CHARS } from "#worker/services/shared/limits.ts";
import { buttonClass } from "./ui";

/**
 * The search box above an admin table: a GET form (?q=), so it works without JavaScript and a search
 * can be shared; submitting starts again at page 1. `children` are the table's filters (selects), sent
 * with the same form. "Clear" is shown while a search or a filter is on.
 */
export function TableSearch({
  q,
  label,
  placeholder,
  filtered = false,
  children,
}: {
  q: string;
  label: string;
  placeholder: string;
  /** Whether a filter (beyond the search text) is on. */
  filtered?: boolean;
  children?: ReactNode;
}) {
  const location = useLocation();
  return (
    <Form
      method="get"
      role="search"
      className={`mb-4 flex flex-wrap ${children ? "max-w-4xl" : "max-w-xl"} items-center gap-2`}
      key={location.search}
    >
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
        className="block h-10 min-w-48 flex-1 rounded-lg border border-gray-300 bg-white px-3 text-sm text-ink shadow-sm placeholder:text-gray-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
      />
      {children}
      <button type="submit" className={buttonClass({ size: "sm", className: "h-10" })}>
        Search
      </button>
      {q || filtered ? (
        <Link to={location.pathname} className="text-sm font-medium text-brand-700 hover:underline">
          Clear
        </Link>
      ) : null}
    </Form>
  );
}
