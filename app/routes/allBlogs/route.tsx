import { READING_PAGE } from "#app/lib/reading-page.ts";
import { loadOr404 } from "#app/lib/forms.server.ts";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { containerClass } from "#app/components/ui.tsx";
import { BlogCard } from "#app/components/BlogCard.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { isCategory } from "#worker/services/categories.ts";
import { tagPath, tagSlug } from "#worker/services/blogs/slug.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { toCard } from "#app/lib/cards.ts";
import { EmptyResult, ResultSummary, SearchForm } from "./search.tsx";
import { Sidebar } from "./sidebar.tsx";

/** A reading page: an anonymous reader gets it without the framework (docs/decisions/059). */
export const handle = READING_PAGE;

/** A card in the list column: 1 column, 2 from 640 px, beside the 20 rem sidebar from 1024 px. */
const LIST_CARD_SIZES =
  "(min-width: 1280px) 440px, (min-width: 1024px) calc(50vw - 220px), (min-width: 640px) 48vw, 100vw";

const DESCRIPTION = (brand: string) =>
  `Every post on ${brand}: technology, travel, health, finance, AI and more. Search by words, filter by topic and save what you want to read later.`;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: `All Blogs | ${brandOf(matches)}` }];
  const { q, category, results } = data;
  const filtered = q || category;
  const title = filtered ? `${[q && `“${q}”`, category].filter(Boolean).join(" in ")}: All Blogs` : "All Blogs";
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (results.page > 1) params.set("page", String(results.page));
  const qs = params.toString();
  const tags = seo({
    brand: brandOf(matches),
    title,
    description: DESCRIPTION(brandOf(matches)),
    origin: data.origin,
    path: `/allBlogs${qs ? `?${qs}` : ""}`,
  });
  // A category view offers its own feed to feed readers.
  if (isCategory(category)) {
    tags.push({
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: `${brandOf(matches)}: ${category}`,
      href: categoryFeed(category),
    });
  }
  // Search results are not pages of their own for crawlers.
  return q ? [...tags, { name: "robots", content: "noindex, follow" }] : tags;
};

/** One D1 round trip: the filtered page, its total, the sidebar's latest and the reader's saved blogs (services.reading). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const category = url.searchParams.get("category") ?? "";
  // One tag: ?tag=, or #tag typed in the search box (the search service reads it out of q).
  const tag = (url.searchParams.get("tag") ?? "").trim().slice(0, 60);
  const [{ results, latest, saved }, suggested] = await Promise.all([
    loadOr404(() =>
      context.services.reading.listing(context.user, { q, category, tag, page: url.searchParams.get("page") }),
    ),
    context.services.follows.suggestions(context.user),
  ]);
  return {
    origin: url.origin,
    q,
    category,
    tag,
    results: { ...results, items: results.items.map((hit) => ({ ...toCard(hit), highlight: hit.highlight })) },
    latest: latest.map(({ _id, title, date_time, category: c }) => ({ _id, title, date_time, category: c })),
    saved,
    suggested,
    signedIn: context.user !== null,
  };
}

/** One category's feed (app/routes/rss[.]xml.ts). */
const categoryFeed = (category: string) => `/rss.xml?category=${encodeURIComponent(category)}`;

export default function AllBlogs() {
  const { q, category, tag, results, latest, saved, suggested, signedIn } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/allBlogs";
  const filtered = Boolean(q || category || tag);

  return (
    <div className="bg-gray-50/60">
      <header className="border-b border-gray-200 bg-gradient-to-b from-brand-50 to-white">
        {/* With a search or a filter on, a phone's first screen shows the results: the hero shrinks to the form. */}
        <div className={containerClass({ className: filtered ? "py-6 sm:py-14" : "py-12 sm:py-14" })}>
          <p
            className={`text-sm font-semibold uppercase tracking-wider text-brand-600 ${filtered ? "hidden sm:block" : ""}`}
          >
            The library
          </p>
          <h1
            className={`${filtered ? "sm:mt-2" : "mt-2"} text-4xl font-extrabold tracking-tight text-ink sm:text-5xl`}
          >
            All Blogs
          </h1>
          <p className={`mt-4 max-w-2xl text-lg text-gray-600 ${filtered ? "hidden sm:block" : ""}`}>
            Stories, guides and ideas from our writers. Search for what you need, narrow the list by topic, and save the
            posts you want to come back to.
          </p>
          <SearchForm q={q} category={category} />
        </div>
      </header>

      <div
        className={containerClass({ className: "grid grid-cols-1 gap-10 py-10 lg:grid-cols-[minmax(0,1fr)_20rem]" })}
      >
        <section aria-labelledby="results-heading" aria-busy={searching || undefined}>
          <div className="flex flex-wrap items-baseline justify-between gap-3">
            <h2 id="results-heading" className="text-xl font-bold text-ink">
              {filtered ? "Results" : "Latest posts"}
            </h2>
            <p className="text-sm text-gray-600" role="status">
              <ResultSummary q={q} category={category} total={results.total} />
            </p>
          </div>
          {filtered ? (
            <p className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
              <Link to="/allBlogs" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                Clear filters
              </Link>
              {isCategory(category) ? (
                // A feed is a file for feed readers, not a page: a plain link, no client routing.
                <a
                  href={categoryFeed(category)}
                  className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                >
                  RSS feed for {category}
                </a>
              ) : null}
              {tagSlug(tag) ? (
                <Link to={tagPath(tag)} className="font-semibold text-brand-700 hover:underline">
                  Tagged #{tag}
                </Link>
              ) : null}
            </p>
          ) : null}

          {results.items.length ? (
            <ul className="mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2">
              {results.items.map((blog, i) => (
                <li key={blog._id} className="grid">
                  <BlogCard blog={blog} eager={i < 2} highlight={blog.highlight} sizes={LIST_CARD_SIZES} />
                </li>
              ))}
            </ul>
          ) : (
            <EmptyResult
              q={q}
              category={category}
              page={results.page}
              pages={results.pages}
              total={results.total}
              latest={latest}
            />
          )}

          {results.total > 0 ? (
            <div className="mt-10">
              <Pagination page={results.page} pages={results.pages} label="All blogs pages" />
            </div>
          ) : null}
        </section>

        <Sidebar q={q} category={category} latest={latest} saved={saved} suggested={suggested} signedIn={signedIn} />
      </div>
    </div>
  );
}
