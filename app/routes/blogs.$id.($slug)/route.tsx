import { READING_PAGE } from "#app/lib/reading-page.ts";
import { Image } from "#app/components/Image.tsx";
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { PreviewNotice } from "./preview-notice";
import { FollowButton } from "#app/components/FollowButton.tsx";
import { CommentIcon, ShareIcon } from "#app/components/icons.tsx";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { Avatar } from "#app/components/Avatar.tsx";
import { readingMinutes, wordCount } from "#app/lib/blog-text.ts";
import { htmlText } from "#worker/content/markdown.ts";
import { storedPostHtml } from "#worker/content/stored.ts";
import { toast } from "#app/lib/dialogs.ts";
import { refusal, type FormFailure } from "#app/lib/form-result.ts";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { sharedLink } from "#app/lib/share.ts";
import { authPageUrl } from "#app/lib/auth-url.ts";
import { COMMENT_ANNOUNCER, CommentForm } from "./comment-form";
import { CommentsList } from "./comments-list";
import { pageReports } from "./report-comment";
import { LikeButton, SaveButton, saveNotice, succeeded, ToggleButton, type Done } from "./reactions";
import type { action } from "./action";
import { SharePanel, useSharePanel } from "./share-panel";
import { OwnerLinks } from "./owner-links";
import { MembersCta } from "./members-cta";
import { RelatedPosts } from "#app/components/RelatedPosts.tsx";
import { TagList } from "#app/components/TagList.tsx";
import { postPath } from "#worker/services/blogs/slug.ts";

/** A reading page: an anonymous reader gets it without the framework (docs/decisions/059). */
export const handle = READING_PAGE;

export { meta } from "./meta";

/**
 * Two D1 round trips: the blog, its comments, and the reader's like and save state; then the related posts (services.reading).
 * A malformed or unknown id is the 404 page.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  // ?comments=<cursor>: the older comments "Show more" leads to without JavaScript.
  const url = new URL(request.url);
  const cursor = url.searchParams.get("comments");
  const post = await loadOr404(() => context.services.reading.post(context.user, params.id ?? "", cursor));
  // /blogs/{id}, or a slug from an older title: one permanent redirect to the readable link.
  if (params.slug !== post.blog.slug) throw redirect(`${postPath(post.blog)}${url.search}`, 301);
  // ?thread=<comment>&replies=<cursor>: a thread's further replies, "Show more replies" without JavaScript.
  const thread = url.searchParams.get("thread");
  const repliesCursor = url.searchParams.get("replies");
  const moreReplies =
    thread && repliesCursor && post.comments.some((c) => c._id === thread)
      ? { thread, ...(await loadOr404(() => context.services.comments.replies(thread, { cursor: repliesCursor }))) }
      : null;
  const user = context.user;
  // Rendered once per version of the text and kept (worker/content/stored.ts): a cache miss reads it back.
  const detailsHtml = await storedPostHtml(context.env.IMAGES, post.blog._id, post.blog.blog_details);
  const text = htmlText(detailsHtml);
  return {
    origin: url.origin,
    ...post,
    moreReplies: moreReplies ? { thread: moreReplies.thread, items: moreReplies.items, next: moreReplies.next } : null,
    older: Boolean(cursor),
    // Markdown is rendered (and sanitised) on the server: readers download no renderer.
    detailsHtml,
    wordCount: wordCount(text),
    minutes: readingMinutes(text),
    related: post.related.map(({ _id, title, image, category, author_name, short_description }) => ({
      _id,
      title,
      image,
      category,
      author_name,
      short_description,
    })),
    viewer: user ? { id: user.id, role: user.role } : null,
    // The byline's Follow button: null for a visitor (their copy of the page is shared).
    followsWriter: user ? (await context.services.follows.followedAmong(user, [post.blog.author_id])).length > 0 : null,
    fediverse: await context.services.federation.reactions(post.blog._id),
  };
}

export { action } from "./action";

type ActionResult = Done | FormFailure | undefined;

export default function BlogDetail() {
  const {
    blog,
    comments,
    commentCount,
    commentsNext,
    moreReplies,
    older,
    liked,
    saved,
    reported,
    viewer,
    followsWriter,
    fediverse,
    origin,
    detailsHtml,
    minutes,
    related,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionResult;
  const [commentOpen, setCommentOpen] = useState(false);
  const commentPanel = useId();
  const sharePanel = useId();
  const [shareOpen, toggleShare] = useSharePanel(sharePanel);
  const link = sharedLink(origin, blog);

  // A refused reply (without JavaScript) shows under its comment; a refused comment in the top form.
  const failed = refusal(actionData);
  const topFailure = failed?.values.intent === "comment" && !failed.values.parent_id ? failed : undefined;
  // Without JavaScript, a form post renders this page again with its answer: confirm it in words.
  const notice =
    succeeded(actionData, "save") || succeeded(actionData, "unsave") ? saveNotice(actionData as Done) : null;

  // The view beacon: its own request, so a view counts even when this page came from the edge cache
  // (the server skips bots, the writer, drafts, and a reader already counted today).
  useEffect(() => {
    if (blog.status !== "draft") navigator.sendBeacon?.(`/api/blogs/${blog._id}/view`);
  }, [blog._id, blog.status]);

  useEffect(() => {
    if (succeeded(actionData, "delete-comment")) void toast(MSG.delete.doneTitle, MSG.delete.doneText);
  }, [actionData]);

  return (
    // The view beacon's address, for the reading pages' island when the page is served without the framework.
    <article className="pb-16" data-view-beacon={blog.status === "draft" ? undefined : `/api/blogs/${blog._id}/view`}>
      {/* Without JavaScript the toggled panels are simply open and their toggles hidden. */}
      <noscript>
        <style>{"[data-toggle]{display:none!important}[data-panel]{display:block!important}"}</style>
      </noscript>

      <header className="mx-auto max-w-3xl px-4 pt-8 sm:px-6 sm:pt-12">
        <PreviewNotice blog={blog} />
        <nav aria-label="Breadcrumb" className="text-sm">
          <Link to="/allBlogs" className="font-medium text-gray-600 hover:text-brand-700">
            <span aria-hidden="true">← </span>All Blogs
          </Link>
        </nav>
        {blog.category ? (
          <Link
            to={`/allBlogs?category=${encodeURIComponent(blog.category)}`}
            className="mt-6 inline-block rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-brand-700 hover:bg-brand-100"
          >
            {blog.category}
          </Link>
        ) : null}
        <h1 dir="auto" className="mt-4 text-3xl font-extrabold leading-tight tracking-tight text-ink sm:text-5xl">
          {blog.title}
        </h1>
        <OwnerLinks blogId={blog._id} authorId={blog.author_id} viewer={viewer} />
        <p dir="auto" className="mt-4 text-lg leading-relaxed text-gray-600 sm:text-xl">
          {blog.short_description}
        </p>
        <div className="mt-4 empty:hidden">
          <TagList tags={blog.tags} withIndex />
        </div>
        {/* Wraps: after an unfollow, its Undo goes under the byline on a phone. */}
        <div className="mt-6 flex flex-wrap items-center gap-3">
          <Avatar photoURL={blog.author_image} size={48} eager />
          <div className="text-sm">
            <p className="font-semibold text-ink">
              <Link
                to={`/writers/${blog.author_id}`}
                rel="author"
                className="underline-offset-2 hover:text-brand-700 hover:underline"
              >
                {blog.author_name}
              </Link>
            </p>
            <p className="text-gray-600">
              <LocalTime iso={blog.date_time} withTime />
              <span aria-hidden="true"> · </span>
              <span className="whitespace-nowrap">{minutes} min read</span>
            </p>
          </div>
          {viewer?.id === blog.author_id ? null : (
            <FollowButton writerId={blog.author_id} writerName={blog.author_name} following={followsWriter} undoable />
          )}
        </div>
      </header>

      {/* A post without a cover (a title-only draft) has no hero at all. */}
      {blog.image ? (
        <figure className="mx-auto mt-8 max-w-5xl px-0 sm:px-6">
          <Image
            src={blog.image}
            alt={blog.title}
            width={1200}
            height={675}
            // The cover is the page's largest paint: fetch it first.
            priority
            sizes="(min-width: 1024px) 976px, (min-width: 640px) calc(100vw - 48px), 100vw"
            className="aspect-[16/9] w-full bg-gray-100 object-cover sm:rounded-2xl"
          />
        </figure>
      ) : null}

      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <div
          className="mt-6 grid grid-cols-2 gap-2 border-y border-gray-200 py-3 min-[440px]:grid-cols-4 sm:flex sm:flex-wrap sm:items-center"
          role="group"
          aria-label="Post actions"
        >
          <LikeButton likes={blog.likes} liked={liked} signedIn={viewer !== null} />
          <ToggleButton
            open={commentOpen}
            controls={commentPanel}
            onToggle={() => setCommentOpen((o) => !o)}
            icon={<CommentIcon />}
          >
            <span className="whitespace-nowrap">
              {/* The count in the button's colour: grey failed 4.5:1 on the open button's tint. */}
              Comment{commentCount ? <span className="font-normal tabular-nums"> {commentCount}</span> : null}
            </span>
          </ToggleButton>
          <ToggleButton
            open={shareOpen}
            controls={sharePanel}
            onToggle={toggleShare}
            icon={<ShareIcon />}
            share={{ url: link, title: blog.title }}
          >
            Share
          </ToggleButton>
          <SaveButton saved={saved} signedIn={viewer !== null} />
        </div>

        {notice ? (
          <p
            role="status"
            className="mt-4 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm font-medium text-green-800"
          >
            {notice}
          </p>
        ) : null}

        <div id={commentPanel} data-panel="" className={commentOpen ? "mt-4" : "hidden"}>
          {viewer ? (
            <CommentForm blogId={blog._id} failure={topFailure} onSent={() => setCommentOpen(false)} />
          ) : (
            <div className="rounded-2xl border border-gray-200 bg-gray-50 p-5 text-sm text-gray-700">
              <p>
                <Link
                  to={authPageUrl("/login", postPath(blog))}
                  className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                >
                  Sign in to join the conversation
                </Link>{" "}
                and share what you think about this post.
              </p>
            </div>
          )}
        </div>

        <div id={sharePanel} data-panel="" className={shareOpen ? "mt-4" : "hidden"}>
          <SharePanel link={link} title={blog.title} fediverse={fediverse} />
        </div>
        {/* Sanitised by an allow-list on the server (worker/content/markdown.ts). */}
        <div
          className="post-body mt-10 space-y-6 font-serif text-lg leading-8 text-gray-800"
          dangerouslySetInnerHTML={{ __html: detailsHtml }}
        />
        <MembersCta blog={blog} />

        <p id={COMMENT_ANNOUNCER} aria-live="polite" className="sr-only" />
        <CommentsList
          key={`${comments[0]?._id ?? ""}:${commentCount}`}
          blogId={blog._id}
          blogAuthorId={blog.author_id}
          comments={comments}
          moreReplies={moreReplies}
          total={commentCount}
          next={commentsNext}
          older={older}
          viewer={viewer}
          failure={refusal(actionData) ?? undefined}
          reports={pageReports(reported, actionData)}
        />

        <p className="mt-10 text-sm text-gray-600">
          Enjoyed this?{" "}
          <Link
            to={`/?from=${blog._id}#newsletter`}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            Get new posts by email
          </Link>
        </p>

        <RelatedPosts posts={related} />
      </div>
    </article>
  );
}
