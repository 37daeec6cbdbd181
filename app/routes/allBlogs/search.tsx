import { Form, Link, useLocation } from "@remix-run/react";
import { buttonClass, EmptyState } from "#app/components/ui.tsx";
import { postPath } from "#worker/services/blogs/slug.ts";
import { CATEGORIES, isCategory } from "#worker/services/categories.ts";
import { MAX_SEARCH_CHARS } from "#worker/services/shared/limits.ts";

/** The list's search box: a GET form, so a search is a shareable link and works without JavaScript. */
export function SearchForm({ q, category }: { q: string; category: string }) {
  const location = useLocation();
  return (
    <Form
      method="get"
      action="/allBlogs"
      role="search"
      className="mt-8 flex max-w-2xl flex-col gap-3 sm:flex-row"
      key={location.search}
    >
      <label htmlFor="blog-search" className="sr-only">
        Search blogs
      </label>
      <div className="relative flex-1">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width={18}
          height={18}
          className="pointer-events-none absolute left-3.5 top-1/2 -translate-y-1/2 text-gray-400"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
        >
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" strokeLinecap="round" />
        </svg>
        <input
          id="blog-search"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MAX_SEARCH_CHARS}
          placeholder="Search all blogs"
          className="block h-12 w-full rounded-full border border-gray-300 bg-white pl-10 pr-4 text-base text-ink shadow-sm placeholder:text-gray-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
        />
      </div>
      {isCategory(category) ? <input type="hidden" name="category" value={category} /> : null}
      <button type="submit" className={buttonClass({ size: "lg", className: "h-12" })}>
        Search{isCategory(category) ? <span className="sr-only"> in {category}</span> : null}
      </button>
    </Form>
  );
}

/** "3 blogs matching “x” in Travel". */
export function ResultSummary({ q, category, total }: { q: string; category: string; total: number }) {
  const noun = total === 1 ? "blog" : "blogs";
  return (
    <>
      {total} {noun}
      {q ? <> matching “{q}”</> : null}
      {category ? <> in {category}</> : null}
    </>
  );
}

/** What an empty page says: no such page, no match (with suggestions), or an empty topic. */
export function EmptyResult({
  q,
  category,
  page,
  pages,
  total,
  latest,
}: {
  q: string;
  category: string;
  page: number;
  pages: number;
  total: number;
  latest: { _id: string; title: string }[];
}) {
  const beyondEnd = total > 0 && page > pages;
  return (
    <EmptyState className="mt-6">
      <h3 className="text-lg font-semibold text-ink">{beyondEnd ? "There is no such page" : "No blogs found"}</h3>
      <p className="mx-auto mt-2 max-w-md text-sm text-gray-600">
        {beyondEnd
          ? `This list has ${pages} ${pages === 1 ? "page" : "pages"}.`
          : q && category
            ? `No blog in ${category} matches “${q}”. Try other words or another topic.`
            : q
              ? `No blog matches “${q}”. Try fewer or different words, a topic, or one of the latest posts.`
              : category && isCategory(category)
                ? `There are no blogs in ${category} yet.`
                : category
                  ? `“${category}” is not one of our topics.`
                  : "No blogs have been published yet."}
      </p>
      {q && !beyondEnd ? <Suggestions latest={latest} /> : null}
      <Link to="/allBlogs" className={buttonClass({ className: "mt-6" })}>
        Show all blogs
      </Link>
    </EmptyState>
  );
}

/** A search that found nothing suggests where to go instead: the words in each topic, and the latest posts. */
function Suggestions({ latest }: { latest: { _id: string; title: string }[] }) {
  return (
    <div className="mx-auto mt-6 max-w-lg text-left">
      <h4 className="text-sm font-semibold text-ink">Browse a topic</h4>
      <ul className="mt-2 flex flex-wrap gap-2" aria-label="Suggested topics">
        {CATEGORIES.map((name) => (
          <li key={name}>
            <Link
              to={`/allBlogs?${new URLSearchParams({ category: name })}`}
              className="inline-flex rounded-full border border-gray-200 bg-gray-50 px-3 py-1 text-sm font-medium text-gray-800 hover:border-brand-500 hover:bg-brand-50 hover:text-brand-700"
            >
              {name}
            </Link>
          </li>
        ))}
      </ul>
      {latest.length ? (
        <>
          <h4 className="mt-5 text-sm font-semibold text-ink">Or read the latest</h4>
          <ul className="mt-2 flex flex-col gap-1.5" aria-label="Suggested latest posts">
            {latest.map((b) => (
              <li key={b._id}>
                <Link to={postPath(b)} className="text-sm font-semibold text-brand-700 hover:underline">
                  {b.title}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
