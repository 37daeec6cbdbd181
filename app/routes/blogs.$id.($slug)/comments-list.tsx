import { Link, useLocation } from "@remix-run/react";
import { authPageUrl } from "#app/lib/auth-url.ts";
import type { FormFailure } from "#app/lib/form-result.ts";
import type { Comment, Thread } from "#worker/services/comments/queries.ts";
import { useLoadMore } from "#app/lib/use-load-more.ts";
import { CommentThread, type Viewer } from "./comment-thread";
import type { PageReports } from "./report-comment";
import { buttonClass } from "#app/components/ui.tsx";

/**
 * A post's comments, newest first, a page at a time. "Show more" is a link to the next (older)
 * comments (?comments=<cursor>#comments), so it works without JavaScript; with JavaScript it reads
 * them from GET /api/blogs/{id}/comments and adds them below, staying on the page.
 */
export function CommentsList({
  blogId,
  blogAuthorId,
  comments,
  moreReplies,
  total,
  next,
  older,
  viewer,
  failure,
  reports,
}: {
  blogId: string;
  /** The post's writer: they may delete any comment under it. */
  blogAuthorId: string;
  comments: Thread[];
  /** A thread's further replies the URL asked for (?thread=&replies=, without JavaScript). */
  moreReplies: { thread: string; items: Comment[]; next: string | null } | null;
  total: number;
  next: string | null;
  /** This page shows older comments (a cursor in the URL): offer the way back to the newest. */
  older: boolean;
  viewer: Viewer;
  /** A refused comment or reply sent without JavaScript: the reply's thread shows it. */
  failure?: FormFailure;
  /** The reader's reports, and the answer to one posted without JavaScript. */
  reports: PageReports;
}) {
  const { pathname } = useLocation();
  const { items, cursor, loading, failed, showMore } = useLoadMore<Thread>(
    comments,
    next,
    (after) => `/api/blogs/${blogId}/comments?cursor=${encodeURIComponent(after)}`,
  );
  const shown = items.map((t) =>
    moreReplies && t._id === moreReplies.thread
      ? { ...t, replies: [...t.replies, ...moreReplies.items], replies_next: moreReplies.next }
      : t,
  );

  return (
    <section id="comments" aria-labelledby="comments-heading" className="mt-14 border-t border-gray-200 pt-10">
      <h2 id="comments-heading" className="text-2xl font-bold tracking-tight text-ink">
        Comments <span className="text-gray-500">({total})</span>
      </h2>
      {older ? (
        <p className="mt-4">
          <Link to="?#comments" className="text-sm font-semibold text-brand-700 hover:underline">
            Back to the newest comments
          </Link>
        </p>
      ) : null}
      {shown.length === 0 ? (
        <p className="mt-4 text-gray-600">
          No comments yet.{" "}
          {viewer ? (
            "Be the first to share your thoughts."
          ) : (
            <>
              <Link
                to={authPageUrl("/login", pathname)}
                className="font-semibold text-brand-700 underline underline-offset-2"
              >
                Sign in
              </Link>{" "}
              to start the conversation.
            </>
          )}
        </p>
      ) : (
        <ol className="mt-6 flex flex-col gap-6" aria-label="Comments, newest first">
          {shown.map((t) => (
            <CommentThread
              key={t._id}
              blogId={blogId}
              thread={t}
              blogAuthorId={blogAuthorId}
              viewer={viewer}
              failure={failure?.values.parent_id === t._id ? failure : undefined}
              reports={reports}
            />
          ))}
        </ol>
      )}
      {cursor ? (
        <p className="mt-6 text-center">
          <Link
            to={`?comments=${encodeURIComponent(cursor)}#comments`}
            onClick={showMore}
            aria-disabled={loading || undefined}
            className={buttonClass({ tone: "secondary", className: "h-10" })}
          >
            {loading ? "Loading…" : "Show more"}
          </Link>
        </p>
      ) : null}
      {failed ? (
        <p role="alert" className="mt-2 text-center text-sm text-red-700">
          The comments could not be loaded. Try again.
        </p>
      ) : null}
    </section>
  );
}
