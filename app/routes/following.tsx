import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyPage, PagedCards } from "#app/components/PagedList.tsx";
import { buttonClass, containerClass } from "#app/components/ui.tsx";
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
      <p className="mt-1 text-sm">
        <Link to="/fediverse" className="font-medium text-brand-700 hover:underline">
          Follow accounts on Mastodon and other servers
        </Link>
      </p>
      <PagedCards
        list={feed}
        label="Posts from writers you follow"
        pagerLabel="Pages of posts from writers you follow"
        empty={
          <EmptyPage
            list={feed}
            title="Nothing here yet"
            text="Follow writers from their pages, their posts or the “Who to Follow” list, and their new posts will be here."
          >
            <Link to="/allBlogs" className={buttonClass({ className: "mt-6" })}>
              Find writers to follow
            </Link>
          </EmptyPage>
        }
      />
    </div>
  );
}
