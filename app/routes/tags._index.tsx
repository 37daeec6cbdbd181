import { READING_PAGE } from "#app/lib/reading-page.ts";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyPage, PagedList } from "#app/components/PagedList.tsx";
import { buttonClass, containerClass } from "#app/components/ui.tsx";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { tagPath } from "#worker/services/blogs/slug.ts";

/** A reading page: an anonymous reader gets it without the framework (docs/decisions/059). */
export const handle = READING_PAGE;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: `Page not found | ${brandOf(matches)}` }];
  const { origin, tags } = data;
  return seo({
    brand: brandOf(matches),
    title: tags.page > 1 ? `All tags, page ${tags.page}` : "All tags",
    description: `Every tag on ${brandOf(matches)}, with how many posts carry it.`,
    origin,
    path: `/tags${tags.page > 1 ? `?page=${tags.page}` : ""}`,
  });
};

/**
 * /tags: every tag a visible post carries, as its posts spell it, with how many visible posts carry it
 * (drafts and posts scheduled for later never count), in slug order, a page at a time (the one pagination
 * helper, through services.tags.index). Shared and cached for visitors under `blogs`, like the tag pages:
 * every post write, and so every change of a post's tags, purges it (worker/cache/policy.ts).
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tags = await loadOr404(() => context.services.tags.index({ page: url.searchParams.get("page") }));
  return { origin: url.origin, tags: { ...tags, items: tags.items.map((t) => ({ _id: t.tag, ...t })) } };
}

const postCount = (n: number) => `${n} ${n === 1 ? "post" : "posts"}`;

export default function Tags() {
  const { tags } = useLoaderData<typeof loader>();
  return (
    <div className={containerClass({ className: "py-10" })}>
      <header>
        <nav aria-label="Breadcrumb" className="text-sm">
          <Link to="/allBlogs" className="font-medium text-gray-600 hover:text-brand-700">
            <span aria-hidden="true">← </span>All Blogs
          </Link>
        </nav>
        <p className="mt-4 text-sm font-semibold uppercase tracking-wider text-brand-600">Tags</p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">All tags</h1>
        <p className="mt-2 text-sm text-gray-600">
          {tags.total === 0 ? "No tags yet." : `${tags.total} ${tags.total === 1 ? "tag" : "tags"}`}
        </p>
      </header>
      <PagedList
        list={tags}
        className="mt-8 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3"
        label="Tags"
        itemClassName="min-w-0"
        pagerLabel="Pages of tags"
        renderItem={(t) => (
          <Link
            to={tagPath(t.tag)}
            className="flex h-full items-baseline justify-between gap-3 rounded-xl border border-gray-200 bg-white px-4 py-3 hover:border-brand-500 hover:bg-brand-50"
          >
            <span className="min-w-0 break-words font-semibold text-ink">#{t.name}</span>{" "}
            <span className="shrink-0 text-sm text-gray-600">{postCount(t.posts)}</span>
          </Link>
        )}
        empty={
          <EmptyPage
            list={tags}
            title="No tags yet"
            text="Tags show here once a published post carries one."
            beyondText={`The tags fill ${tags.pages} ${tags.pages === 1 ? "page" : "pages"}.`}
          >
            <Link to={tags.total > 0 ? "/tags" : "/allBlogs"} className={buttonClass({ className: "mt-6" })}>
              {tags.total > 0 ? "First page" : "All Blogs"}
            </Link>
          </EmptyPage>
        }
      />
    </div>
  );
}
