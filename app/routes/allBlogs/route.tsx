import { Image } from "#app/components/Image.tsx";
import { postPath } from "#worker/services/blogs/slug.ts";
import { loadOr404 } from "#app/lib/forms.server.ts";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { buttonClass, EmptyState } from "#app/components/ui.tsx";
import { MAX_SEARCH_CHARS } from "#worker/services/shared/limits.ts";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { BlogCard } from "#app/components/BlogCard.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { CATEGORIES, isCategory } from "#worker/services/categories.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { authPageUrl } from "#app/lib/auth-url.ts";
import { WhoToFollowList } from "#app/components/WhoToFollow.tsx";

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
  // One tag (issue 22): ?tag=, or #tag typed in the search box (the search service reads it out of q).
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
    results: { ...results, items: results.items.map(({ blog_details: _body, ...card }) => card) },
    latest: latest.map(({ _id, title, date_time, category: c }) => ({ _id, title, date_time, category: c })),
    saved,
    suggested,
    signedIn: context.user !== null,
  };
}

/** One category's feed (app/routes/rss[.]xml.ts). */
const categoryFeed = (category: string) => `/rss.xml?category=${encodeURIComponent(category)}`;

const container = "mx-auto max-w-7xl px-4 sm:px-6 lg:px-8";

export default function AllBlogs() {
  const { q, category, tag, results, latest, saved, suggested, signedIn } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/allBlogs";
  const filtered = Boolean(q || category || tag);

  return (
    <div className="bg-gray-50/60">
      <header className="border-b border-gray-200 bg-gradient-to-b from-brand-50 to-white">
        <div className={`${container} py-12 sm:py-14`}>
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">The library</p>
          <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">All Blogs</h1>
          <p className="mt-4 max-w-2xl text-lg text-gray-600">
            Stories, guides and ideas from our writers. Search for what you need, narrow the list by topic, and save the
            posts you want to come back to.
          </p>
          <SearchForm q={q} category={category} />
        </div>
      </header>

      <div className={`${container} grid grid-cols-1 gap-10 py-10 lg:grid-cols-[minmax(0,1fr)_20rem]`}>
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
              {tag ? (
                <Link to={`/tags/${encodeURIComponent(tag)}`} className="font-semibold text-brand-700 hover:underline">
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

        <aside aria-label="Sidebar" className="flex flex-col gap-6">
          <SidebarCard title="Latest Blogs" id="sidebar-latest">
            <ol className="flex flex-col divide-y divide-gray-100">
              {latest.map((b) => (
                <li key={b._id} className="py-3 first:pt-0 last:pb-0">
                  <Link to={postPath(b)} prefetch="intent" className="group block">
                    <span className="block text-sm font-semibold leading-snug text-ink group-hover:text-brand-700">
                      {b.title}
                    </span>
                    <span className="mt-1 block text-xs text-gray-600">
                      {b.category} · <LocalTime iso={b.date_time} />
                    </span>
                  </Link>
                </li>
              ))}
            </ol>
          </SidebarCard>

          <SidebarCard title="Recommended Topics" id="sidebar-topics">
            <ul className="flex flex-wrap gap-2">
              {CATEGORIES.map((name) => {
                const active = name === category;
                return (
                  <li key={name}>
                    <Link
                      to={topicHref(name, q, active)}
                      aria-current={active ? "true" : undefined}
                      className={`inline-flex items-center gap-1 rounded-full border px-3 py-1.5 text-sm font-medium transition ${
                        active
                          ? "border-brand-600 bg-brand-600 text-white hover:bg-brand-700"
                          : "border-gray-200 bg-gray-50 text-gray-800 hover:border-brand-500 hover:bg-brand-50 hover:text-brand-700"
                      }`}
                    >
                      {name}
                      {active ? (
                        <span aria-hidden="true" className="text-xs">
                          ✕
                        </span>
                      ) : null}
                      {active ? <span className="sr-only"> (selected, press to show all topics)</span> : null}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </SidebarCard>

          <SidebarCard title="Who to Follow" id="sidebar-follow">
            <WhoToFollowList writers={suggested} signedIn={signedIn} />
          </SidebarCard>

          <SidebarCard title="Recently Saved" id="sidebar-saved">
            {saved === null ? (
              <p className="text-sm text-gray-600">
                <Link to={authPageUrl("/login", "/allBlogs")} className="font-semibold text-brand-700 hover:underline">
                  Sign in
                </Link>{" "}
                to save blogs and find them here.
              </p>
            ) : saved.length === 0 ? (
              <p className="text-sm text-gray-600">Nothing saved yet. Press Save on any post to keep it here.</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {saved.map((s) => (
                  <li key={s._id}>
                    <Link to={postPath(s.blog)} className="group flex items-center gap-3">
                      <Image
                        src={s.blog.image}
                        alt=""
                        width={56}
                        height={40}
                        sizes="56px"
                        maxWidth={320}
                        className="h-10 w-14 shrink-0 rounded-md object-cover"
                      />
                      <span className="min-w-0">
                        <span className="line-clamp-2 text-sm font-semibold leading-snug text-ink group-hover:text-brand-700">
                          {s.blog.title}
                        </span>
                        <span className="block text-xs text-gray-600">{s.blog.category}</span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            {saved !== null ? (
              <p className="mt-4 text-sm">
                <Link to="/saved" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                  See your reading list<span aria-hidden="true"> →</span>
                </Link>
              </p>
            ) : null}
          </SidebarCard>
        </aside>
      </div>
    </div>
  );
}

/** A chip filters by its topic (keeping the words searched); the active chip clears the topic. */
function topicHref(name: string, q: string, active: boolean): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (!active) params.set("category", name);
  const qs = params.toString();
  return `/allBlogs${qs ? `?${qs}` : ""}`;
}

function SearchForm({ q, category }: { q: string; category: string }) {
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

function ResultSummary({ q, category, total }: { q: string; category: string; total: number }) {
  const noun = total === 1 ? "blog" : "blogs";
  return (
    <>
      {total} {noun}
      {q ? <> matching “{q}”</> : null}
      {category ? <> in {category}</> : null}
    </>
  );
}

function EmptyResult({
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

function SidebarCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-gray-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="mb-4 text-base font-bold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}
