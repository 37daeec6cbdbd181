import { READING_PAGE } from "#app/lib/reading-page.ts";
import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyPage, PagedCards, pageCount } from "#app/components/PagedList.tsx";
import { buttonClass, containerClass } from "#app/components/ui.tsx";
import { rssPath } from "#app/lib/feeds.server.ts";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { tagPath } from "#worker/services/blogs/slug.ts";
import { tagKey } from "#worker/services/blogs/tags.ts";
import { toCardPage } from "#app/lib/cards.ts";

/** A reading page: an anonymous reader gets it without the framework (docs/decisions/059). */
export const handle = READING_PAGE;

/** Posts on a tag's page. */
export const TAG_PAGE_SIZE = 12;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: `Page not found | ${brandOf(matches)}` }];
  const { tag, name, blogs, origin, feed } = data;
  return [
    ...seo({
      brand: brandOf(matches),
      title: `#${name}`,
      description: `Posts tagged ${name} on ${brandOf(matches)}.`,
      origin,
      path: `${tagPath(tag)}${blogs.page > 1 ? `?page=${blogs.page}` : ""}`,
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `#${name}`, href: `${origin}${feed}` },
  ];
};

/**
 * /tags/{slug}: the visible posts carrying a tag, newest first, a page at a time (the one pagination
 * helper, through services.tags.page), under the tag's usual spelling ("#Web Performance"). Shared and
 * cached for visitors under `blogs`, so any blog write purges it (worker/cache/policy.ts). Any other
 * spelling of the tag in the path (/tags/Web%20Performance, /tags/CAF%C3%89) is a 301 to its slug's URL;
 * a path with no letter or digit, or a tag no visible post carries, is a 404.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const asked = params.tag ?? "";
  const slug = tagKey(asked);
  if (!slug) throw new Response("No such tag.", { status: 404 });
  const { tag, posts } = await loadOr404(() =>
    context.services.tags.page(slug, { page: url.searchParams.get("page") }, TAG_PAGE_SIZE),
  );
  if (!tag) {
    // Without accents (/tags/cafe), the tag that folds alike (Café), as search finds it.
    const folded = await context.services.tags.folded(slug);
    if (folded) throw redirect(`${tagPath(folded)}${url.search}`, 301);
    throw new Response("No such tag.", { status: 404 });
  }
  if (asked !== slug) throw redirect(`${tagPath(slug)}${url.search}`, 301);
  return {
    origin: url.origin,
    tag: tag.tag,
    name: tag.name,
    feed: rssPath(undefined, tag.tag),
    blogs: toCardPage(posts),
  };
}

export default function TagPage() {
  const { tag, name, blogs, feed } = useLoaderData<typeof loader>();
  return (
    <div className={containerClass({ className: "py-10" })}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <nav aria-label="Breadcrumb" className="text-sm">
            <Link to="/tags" className="font-medium text-gray-600 hover:text-brand-700">
              <span aria-hidden="true">← </span>All tags
            </Link>
          </nav>
          <p className="mt-4 text-sm font-semibold uppercase tracking-wider text-brand-600">Tag</p>
          <h1 className="mt-1 break-words text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">#{name}</h1>
          <p className="mt-2 text-sm text-gray-600">{`${blogs.total} ${blogs.total === 1 ? "post" : "posts"}`}</p>
        </div>
        <div className="flex flex-wrap gap-3 text-sm">
          <a href={feed} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            RSS feed for #{name}
          </a>
          <Link
            to={`/allBlogs?tag=${encodeURIComponent(tag)}`}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            Search within #{name}
          </Link>
        </div>
      </header>
      {/* The cards' titles are h3: this names the list between them and the page's h1 (heading order). */}
      <h2 className="sr-only">{`Posts tagged ${name}`}</h2>
      <PagedCards
        list={blogs}
        pagerLabel={`Pages of posts tagged ${name}`}
        empty={
          <EmptyPage list={blogs} beyondText={`#${name} has ${pageCount(blogs.pages)}.`}>
            <Link to={tagPath(tag)} className={buttonClass({ className: "mt-6" })}>
              First page
            </Link>
          </EmptyPage>
        }
      />
    </div>
  );
}
