import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { safeRedirect } from "#worker/auth/redirect.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { FollowedWriterList, FollowNotice } from "#app/components/FollowedWriters.tsx";
import { EmptyPage, PagedCards } from "#app/components/PagedList.tsx";
import { containerClass } from "#app/components/ui.tsx";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { toCardPage } from "#app/lib/cards.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Following | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

/** What the last change was, carried in the URL so the answer shows without JavaScript too. */
const DONE = ["unfollowed", "followed"] as const;

/**
 * The writers the reader follows (services.follows.writers, the pagination helper, `?page`), then the
 * newest visible posts of those writers (services.follows.feed, `?posts`). `?unfollowed={id}` says
 * "Unfollowed {name}." with an Undo while the reader still does not follow them; `?followed={id}` says
 * the Undo worked. Personal: `private, no-store`, as every page with a session.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const url = new URL(request.url);
  const { follows } = context.services;
  const [writers, feed] = await loadOr404(() =>
    Promise.all([
      follows.writers(user, { page: url.searchParams.get("page") }),
      follows.feed(user, { page: url.searchParams.get("posts") }),
    ]),
  );
  let notice: { kind: (typeof DONE)[number]; writerId: string; name: string } | null = null;
  for (const kind of DONE) {
    const writerId = url.searchParams.get(kind);
    if (!writerId || !isIdShaped(writerId)) continue;
    const { following } = await follows.stateOf(user, writerId);
    // A stale URL (followed again elsewhere, or unfollowed since) says nothing rather than something untrue.
    if (following !== (kind === "followed")) continue;
    try {
      notice = { kind, writerId, name: await follows.writerName(writerId) };
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
    }
  }
  return { writers, feed: toCardPage(feed), notice };
}

/**
 * Unfollow (a writer's row) and Undo (follow again), plain form posts with or without JavaScript: the
 * answer is /following again, on the same pages, saying what was done.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "unfollow" && intent !== "follow") return unknownAction(form);
  const writerId = String(form.get("writerId") ?? "");
  return handleForm(request, form, async () => {
    const { follows } = context.services;
    if (intent === "unfollow") await follows.unfollow(user, writerId);
    else await follows.follow(user, writerId);
    // Only this page's own lists' pages come back; anything else in `back` is dropped.
    const asked = new URL(safeRedirect(form.get("back"), "/following"), "https://same-site.invalid");
    const next = new URLSearchParams();
    for (const keep of ["page", "posts"]) {
      const value = asked.searchParams.get(keep);
      if (value && /^\d{1,7}$/.test(value)) next.set(keep, value);
    }
    next.set(intent === "unfollow" ? "unfollowed" : "followed", writerId);
    return redirect(`/following?${next.toString()}`);
  });
}

export default function Following() {
  const { writers, feed, notice } = useLoaderData<typeof loader>();
  const location = useLocation();
  const back = `${location.pathname}${location.search}`;
  return (
    <div className={containerClass({ className: "py-10" })}>
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Following</p>
      <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">Writers you follow</h1>
      <p className="mt-2 text-gray-600">
        {writers.total > 0
          ? `You follow ${writers.total} ${writers.total === 1 ? "writer" : "writers"}, most recently followed first.`
          : "The writers you follow are listed here, with their newest posts below."}
      </p>
      <p className="mt-1 text-sm">
        <Link to="/fediverse" className="font-medium text-brand-700 hover:underline">
          Follow accounts on Mastodon and other servers
        </Link>
      </p>
      <FollowNotice notice={notice} back={back} />
      <FollowedWriterList writers={writers} back={back} />

      <section aria-labelledby="following-posts" className="mt-12">
        <h2 id="following-posts" className="text-2xl font-bold tracking-tight text-ink">
          From writers you follow
        </h2>
        <p className="mt-1 text-gray-600">
          {feed.total > 0
            ? `${feed.total} ${feed.total === 1 ? "post" : "posts"}, newest first.`
            : "Posts from the writers you follow show up here."}
        </p>
        <PagedCards
          list={feed}
          className="mt-6"
          label="Posts from writers you follow"
          pagerLabel="Pages of posts from writers you follow"
          pagerParam="posts"
          empty={
            <EmptyPage
              list={feed}
              heading="h3"
              className="mt-6"
              title="Nothing here yet"
              text="When the writers you follow publish, their new posts will be here."
            >
              <Link to="/allBlogs" className="mt-4 inline-block font-medium text-brand-700 hover:underline">
                Read all blogs
              </Link>
            </EmptyPage>
          }
        />
      </section>
    </div>
  );
}
