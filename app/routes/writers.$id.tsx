import { READING_PAGE } from "#app/lib/reading-page.ts";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "#app/components/Avatar.tsx";
import { FediverseHandle } from "#app/components/FediverseHandle.tsx";
import { FollowButton } from "#app/components/FollowButton.tsx";
import { EmptyPage, PagedCards } from "#app/components/PagedList.tsx";
import { buttonClass, containerClass } from "#app/components/ui.tsx";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { toCardPage } from "#app/lib/cards.ts";

/** A reading page: an anonymous reader gets it without the framework (docs/decisions/059). */
export const handle = READING_PAGE;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: `Page not found | ${brandOf(matches)}` }];
  const { writer, blogs, origin } = data;
  const description =
    writer.bio.slice(0, 200) ||
    `${writer.name}${writer.designation ? `, ${writer.designation},` : ""} on ${brandOf(matches)}.`;
  return seo({
    brand: brandOf(matches),
    title: `${writer.name}: writer`,
    description,
    origin,
    path: `/writers/${writer._id}${blogs.page > 1 ? `?page=${blogs.page}` : ""}`,
    image: writer.photoURL,
  });
};

/**
 * A writer's public page (shared and cached for visitors: worker/cache/policy.ts, tags `writer:{id}` and
 * `blogs`; a follow purges `writer:{id}`, since the page shows the follower count). A signed-in reader's
 * copy also says whether they follow the writer; theirs is never shared.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { writer, blogs, followers, following } = await loadOr404(() =>
    context.services.writers.page(params.id ?? "", { page: url.searchParams.get("page") }, context.user),
  );
  // The fediverse handle: made from the name on first view, chosen in /settings.
  const handle = await context.services.federation.handleOf(writer._id);
  return {
    origin: url.origin,
    handle,
    writer,
    followers,
    following: context.user ? following : null,
    // Set by the Follow button's form without JavaScript: the button then offers Undo. A visitor's copy is shared: never.
    justUnfollowed: Boolean(context.user) && !following && url.searchParams.get("unfollowed") === "1",
    self: context.user?.id === writer._id,
    blogs: toCardPage(blogs),
  };
}

export default function WriterPage() {
  const { writer, blogs, followers, following, self, handle, justUnfollowed } = useLoaderData<typeof loader>();
  return (
    <div className={containerClass({ className: "py-10" })}>
      <section
        aria-labelledby="writer-heading"
        className="overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm"
      >
        <div className="h-24 bg-gradient-to-r from-brand-600 to-brand-500 sm:h-32" />
        <div className="px-6 pb-8 sm:px-10">
          <div className="-mt-12 sm:-mt-14">
            <Avatar photoURL={writer.photoURL} size={96} eager className="ring-4 shadow-md" />
          </div>
          <p className="mt-4 text-sm font-semibold uppercase tracking-wider text-brand-600">Writer</p>
          <h1 id="writer-heading" className="mt-1 break-words text-3xl font-extrabold tracking-tight text-ink">
            {writer.name}
          </h1>
          {writer.designation ? <p className="mt-1 text-base text-gray-600">{writer.designation}</p> : null}
          <div className="mt-4 flex flex-wrap items-center gap-4">
            <p className="text-sm text-gray-700" data-testid="follower-count">
              <span className="font-semibold text-ink">{followers}</span> {followers === 1 ? "follower" : "followers"}
            </p>
            {self ? null : (
              <FollowButton
                writerId={writer._id}
                writerName={writer.name}
                following={following}
                size="md"
                undoable
                justUnfollowed={justUnfollowed}
              />
            )}
          </div>
          {writer.bio ? (
            <p className="mt-4 max-w-3xl whitespace-pre-line break-words leading-relaxed text-gray-800">{writer.bio}</p>
          ) : null}
          {handle ? <FediverseHandle handle={handle} who={writer.name} /> : null}
        </div>
      </section>

      <section aria-labelledby="writer-posts" className="mt-10">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="writer-posts" className="text-xl font-bold text-ink">
            Posts by {writer.name}
          </h2>
          <p className="text-sm text-gray-600">{`${blogs.total} ${blogs.total === 1 ? "post" : "posts"}`}</p>
        </div>
        <PagedCards
          list={blogs}
          className="mt-6"
          pagerLabel={`Pages of posts by ${writer.name}`}
          empty={
            <EmptyPage
              list={blogs}
              heading="h3"
              className="mt-6"
              title="No posts yet"
              text={`${writer.name} has not published anything yet.`}
            >
              <Link to="/allBlogs" className={buttonClass({ className: "mt-6" })}>
                Read all blogs
              </Link>
            </EmptyPage>
          }
        />
      </section>
    </div>
  );
}
