import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyPage, PagedCards, pageCount } from "#app/components/PagedList.tsx";
import { buttonClass, containerClass } from "#app/components/ui.tsx";
import { rssPath } from "#app/lib/feeds.server.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { tagPath } from "#worker/services/blogs/slug.ts";
import { isTag } from "#worker/services/blogs/tags.ts";
import { toCardPage } from "#app/lib/cards.ts";

/** Posts on a tag's page. */
export const TAG_PAGE_SIZE = 12;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: `Page not found | ${brandOf(matches)}` }];
  const { tag, blogs, origin, feed } = data;
  return [
    ...seo({
      brand: brandOf(matches),
      title: `#${tag}`,
      description: `Posts tagged ${tag} on ${brandOf(matches)}.`,
      origin,
      path: `${tagPath(tag)}${blogs.page > 1 ? `?page=${blogs.page}` : ""}`,
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `#${tag}`, href: `${origin}${feed}` },
  ];
};

/**
 * /tags/{tag}: the visible posts carrying a tag, newest first, a page at a time (the one
 * pagination helper, through services.blogs.search). Shared and cached for visitors under `blogs`, so any
 * blog write purges it (worker/cache/policy.ts). A malformed tag, or one no visible post carries, is a 404.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tag = params.tag ?? "";
  if (!isTag(tag)) throw new Response("No such tag.", { status: 404 });
  const page = await context.services.blogs.search({ tag, page: url.searchParams.get("page") }, TAG_PAGE_SIZE);
  if (page.total === 0) throw new Response("No such tag.", { status: 404 });
  return {
    origin: url.origin,
    tag,
    feed: rssPath(undefined, tag),
    blogs: toCardPage(page),
  };
}

export default function TagPage() {
  const { tag, blogs, feed } = useLoaderData<typeof loader>();
  return (
    <div className={containerClass({ className: "py-10" })}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Tag</p>
          <h1 className="mt-1 break-words text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">#{tag}</h1>
          <p className="mt-2 text-sm text-gray-600">{`${blogs.total} ${blogs.total === 1 ? "post" : "posts"}`}</p>
        </div>
        <div className="flex flex-wrap gap-3 text-sm">
          <a href={feed} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            RSS feed for #{tag}
          </a>
          <Link
            to={`/allBlogs?tag=${encodeURIComponent(tag)}`}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            Search within #{tag}
          </Link>
        </div>
      </header>
      {/* The cards' titles are h3: this names the list between them and the page's h1 (heading order). */}
      <h2 className="sr-only">{`Posts tagged ${tag}`}</h2>
      <PagedCards
        list={blogs}
        pagerLabel={`Pages of posts tagged ${tag}`}
        empty={
          <EmptyPage list={blogs} beyondText={`#${tag} has ${pageCount(blogs.pages)}.`}>
            <Link to={tagPath(tag)} className={buttonClass({ className: "mt-6" })}>
              First page
            </Link>
          </EmptyPage>
        }
      />
    </div>
  );
}
