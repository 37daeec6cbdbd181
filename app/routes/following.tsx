import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { BlogCard } from "#app/components/BlogCard.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { buttonClass, EmptyState, containerClass } from "#app/components/ui.tsx";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { toCardPage } from "#app/lib/cards.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Following | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

/**
 * The newest visible posts of the writers the reader follows (services.follows.feed: the visible-blogs
 * rule, the pagination helper). Personal: `private, no-store`, as every page with a session.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const url = new URL(request.url);
  const feed = await loadOr404(() => context.services.follows.feed(user, { page: url.searchParams.get("page") }));
  return { feed: toCardPage(feed) };
}

export default function Following() {
  const { feed } = useLoaderData<typeof loader>();
  return (
    <div className={containerClass({ className: "py-10" })}>
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Following</p>
      <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">From writers you follow</h1>
      <p className="mt-2 text-gray-600">
        {feed.total > 0
          ? `${feed.total} ${feed.total === 1 ? "post" : "posts"}, newest first.`
          : "Posts from the writers you follow show up here."}
      </p>
      {feed.items.length ? (
        <ul
          className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3"
          aria-label="Posts from writers you follow"
        >
          {feed.items.map((blog, i) => (
            <li key={blog._id} className="grid">
              <BlogCard blog={blog} eager={i < 3} />
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState className="mt-8">
          <h2 className="text-lg font-semibold text-ink">
            {feed.total > 0 ? "There is no such page" : "Nothing here yet"}
          </h2>
          <p className="mx-auto mt-2 max-w-md text-sm text-gray-600">
            {feed.total > 0
              ? `This list has ${feed.pages} ${feed.pages === 1 ? "page" : "pages"}.`
              : "Follow writers from their pages, their posts or the “Who to Follow” list, and their new posts will be here."}
          </p>
          <Link to="/allBlogs" className={buttonClass({ className: "mt-6" })}>
            Find writers to follow
          </Link>
        </EmptyState>
      )}
      {feed.total > 0 ? (
        <div className="mt-10">
          <Pagination page={feed.page} pages={feed.pages} label="Pages of posts from writers you follow" />
        </div>
      ) : null}
    </div>
  );
}
