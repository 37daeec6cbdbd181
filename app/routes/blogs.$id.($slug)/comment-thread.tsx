import { Link, useLocation } from "@remix-run/react";
import { useRef } from "react";
import { Avatar } from "#app/components/Avatar.tsx";
import { ConfirmForm } from "#app/components/ConfirmForm.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import type { FormFailure } from "#app/lib/form-result.ts";
import { useLoadMore } from "#app/lib/use-load-more.ts";
import { authPageUrl } from "#app/lib/auth-url.ts";
import type { Comment, Thread } from "#worker/services/comments/queries.ts";
import { canRemoveComment, canReportComment, type Actor } from "#worker/services/shared/policy.ts";
import { CommentForm } from "./comment-form";
import { detailsPanel, ReportControl, reportStateOf, type PageReports } from "./report-comment";

export type Viewer = Pick<Actor, "id" | "role"> | null;

/** A signed-out reader's Report: the way to sign in, and back to this post (issue 45). */
function SignInToReport() {
  const { pathname } = useLocation();
  return (
    <Link
      to={authPageUrl("/login", pathname)}
      className="text-xs font-semibold text-gray-600 underline-offset-2 hover:text-red-700 hover:underline"
    >
      Report<span className="sr-only"> (sign in first)</span>
    </Link>
  );
}

/** One comment or reply: who, when, what, and what the viewer may do with it. */
function CommentCard({
  comment,
  blogAuthorId,
  viewer,
  reports,
  children,
}: {
  comment: Comment;
  blogAuthorId: string;
  viewer: Viewer;
  reports: PageReports;
  children?: React.ReactNode;
}) {
  const reply = comment.parent_id !== null;
  return (
    <div
      id={`comment-${comment._id}`}
      className="flex scroll-mt-24 gap-3 rounded-2xl target:ring-2 target:ring-brand-500 target:ring-offset-4 data-[fresh=true]:ring-2 data-[fresh=true]:ring-brand-500 data-[fresh=true]:ring-offset-4"
    >
      <Avatar photoURL={comment.author.photoURL} size={reply ? 32 : 40} />
      <div className="min-w-0 flex-1">
        <div className="rounded-2xl bg-gray-50 px-4 py-3">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
            <p className="text-sm font-semibold text-ink">
              {comment.author.remote ? (
                <>
                  {comment.author.remote.url ? (
                    <a href={comment.author.remote.url} rel="nofollow ugc noopener" className="hover:underline">
                      {comment.author.name}
                    </a>
                  ) : (
                    comment.author.name
                  )}{" "}
                  <span className="font-normal text-gray-600">{`${comment.author.remote.handle} · via the fediverse`}</span>
                </>
              ) : (
                comment.author.name
              )}
              {comment.author._id === blogAuthorId ? (
                <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-[11px] font-semibold text-brand-700">
                  Writer
                </span>
              ) : null}
            </p>
            <LocalTime iso={comment.created_at} withTime className="text-xs text-gray-600" />
          </div>
          {comment.content_warning ? (
            // The writer of the reply asked for it to be opened on purpose: collapsed behind their warning.
            <details className="mt-1">
              <summary className="cursor-pointer text-sm font-semibold text-amber-800 dark:text-amber-300">
                {`Content warning: ${comment.content_warning}`}
              </summary>
              <p dir="auto" className="mt-1 whitespace-pre-line break-words text-[15px] leading-relaxed text-gray-800">
                {comment.body}
              </p>
            </details>
          ) : (
            <p dir="auto" className="mt-1 whitespace-pre-line break-words text-[15px] leading-relaxed text-gray-800">
              {comment.body}
            </p>
          )}
        </div>
        <div className="mt-1.5 flex flex-wrap items-center gap-x-4 gap-y-2 px-1">
          {children}
          {canReportComment(viewer, { userId: comment.author._id }) ? (
            <ReportControl comment={comment} state={reportStateOf(reports, comment._id)} />
          ) : viewer ? null : (
            <SignInToReport />
          )}
          {canRemoveComment(viewer, { userId: comment.author._id, blogAuthorId }) ? (
            <ConfirmForm
              fields={{ intent: "delete-comment", commentId: comment._id }}
              ask="delete"
              tone="danger"
              pendingText="Deleting…"
              label={`Delete ${reply ? "reply" : "comment"} by ${comment.author.name}`}
            >
              Delete
            </ConfirmForm>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/**
 * A top comment and its replies (one level), oldest reply first. "Reply" opens a form (a <details>, so
 * it opens without JavaScript too). The first replies come with the page; "Show more replies" reads the
 * rest from GET /api/comments/{id}/replies, or without JavaScript follows ?thread=&replies= to them.
 */
export function CommentThread({
  blogId,
  thread,
  blogAuthorId,
  viewer,
  failure,
  reports,
}: {
  blogId: string;
  thread: Thread;
  blogAuthorId: string;
  viewer: Viewer;
  /** A refused reply to this thread, sent without JavaScript. */
  failure?: FormFailure;
  reports: PageReports;
}) {
  const location = useLocation();
  const details = useRef<HTMLDetailsElement>(null);
  const {
    items: replies,
    cursor,
    loading,
    failed,
    showMore,
  } = useLoadMore<Comment>(
    thread.replies,
    thread.replies_next,
    (after) => `/api/comments/${thread._id}/replies?cursor=${encodeURIComponent(after)}&limit=50`,
  );
  const noJsMore = new URLSearchParams(location.search);
  if (cursor) {
    noJsMore.set("thread", thread._id);
    noJsMore.set("replies", cursor);
  }

  return (
    <li>
      <CommentCard comment={thread} blogAuthorId={blogAuthorId} viewer={viewer} reports={reports}>
        {/* Its form opens under the whole row (detailsPanel): Reply, Report and Delete stay where they were. */}
        {viewer ? (
          <details ref={details} className={detailsPanel} open={failure ? true : undefined}>
            <summary className="cursor-pointer list-none text-xs font-semibold text-brand-700 hover:underline [&::-webkit-details-marker]:hidden">
              Reply
            </summary>
            <div className="mt-2">
              <CommentForm
                blogId={blogId}
                parentId={thread._id}
                failure={failure}
                onSent={() => {
                  if (details.current) details.current.open = false;
                }}
              />
            </div>
          </details>
        ) : null}
      </CommentCard>
      {replies.length ? (
        <ol
          className="mt-3 ml-6 flex flex-col gap-3 border-l-2 border-gray-100 pl-4 sm:ml-12"
          aria-label={`Replies to ${thread.author.name}`}
        >
          {replies.map((r) => (
            <li key={r._id}>
              <CommentCard comment={r} blogAuthorId={blogAuthorId} viewer={viewer} reports={reports} />
            </li>
          ))}
        </ol>
      ) : null}
      {cursor ? (
        <p className="mt-2 ml-6 pl-4 sm:ml-12">
          <Link
            to={`?${noJsMore.toString()}#comment-${thread._id}`}
            onClick={showMore}
            preventScrollReset
            aria-disabled={loading || undefined}
            className="text-sm font-semibold text-brand-700 hover:underline"
          >
            {loading ? "Loading…" : `Show more replies (${thread.reply_count - replies.length})`}
          </Link>
        </p>
      ) : null}
      {failed ? (
        <p role="alert" className="mt-1 ml-6 pl-4 text-sm text-red-700 sm:ml-12">
          The replies could not be loaded. Try again.
        </p>
      ) : null}
    </li>
  );
}
