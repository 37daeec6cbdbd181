import { Link } from "@remix-run/react";
import { useState } from "react";
import { Avatar } from "#app/components/Avatar.tsx";
import { ConfirmForm } from "#app/components/ConfirmForm.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import type { Comment } from "#worker/services/comments.ts";
import { canRemoveComment, type Actor } from "#worker/services/shared/policy.ts";

type Viewer = Pick<Actor, "id" | "role"> | null;

/** The cursor of the Link header's rel="next", if the answer has one. */
function nextCursor(link: string | null): string | null {
  const next = (link ?? "").split(",").find((part) => /rel="next"/.test(part));
  const match = next?.match(/[?&]cursor=([^&>]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/**
 * A post's comments, newest first, a page at a time. "Show more" is a link to the next (older)
 * comments (?comments=<cursor>#comments), so it works without JavaScript; with JavaScript it reads
 * them from GET /api/blogs/{id}/comments and adds them below, staying on the page.
 */
export function CommentsList({
  blogId,
  blogAuthorId,
  comments,
  total,
  next,
  older,
  viewer,
}: {
  blogId: string;
  /** The post's writer: they may delete any comment under it. */
  blogAuthorId: string;
  comments: Comment[];
  total: number;
  next: string | null;
  /** This page shows older comments (a cursor in the URL): offer the way back to the newest. */
  older: boolean;
  viewer: Viewer;
}) {
  const [more, setMore] = useState<Comment[]>([]);
  const [cursor, setCursor] = useState(next);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const shown = [...comments, ...more];

  async function showMore(event: React.MouseEvent<HTMLAnchorElement>) {
    if (!cursor || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setLoading(true);
    setFailed(false);
    try {
      const res = await fetch(`/api/blogs/${blogId}/comments?cursor=${encodeURIComponent(cursor)}`, {
        headers: { Accept: "application/json" },
      });
      if (!res.ok) throw new Error(String(res.status));
      const page = (await res.json()) as Comment[];
      const seen = new Set(shown.map((c) => c._id));
      setMore((m) => [...m, ...page.filter((c) => !seen.has(c._id))]);
      setCursor(nextCursor(res.headers.get("Link")));
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }

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
          No comments yet. {viewer ? "Be the first to share your thoughts." : "Sign in to start the conversation."}
        </p>
      ) : (
        <ol className="mt-6 flex flex-col gap-6" aria-label="Comments, newest first">
          {shown.map((c) => (
            <li key={c._id} className="flex gap-3">
              <Avatar photoURL={c.author.photoURL} size={40} />
              <div className="min-w-0 flex-1 rounded-2xl bg-gray-50 px-4 py-3">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                  {c.author.remote ? (
                    <p className="text-sm">
                      <a
                        href={c.author.remote.url}
                        rel="nofollow ugc noopener"
                        className="font-semibold text-ink hover:underline"
                      >
                        {c.author.name}
                      </a>{" "}
                      <span className="text-gray-600">{`${c.author.remote.handle} · via the fediverse`}</span>
                    </p>
                  ) : (
                    <p className="text-sm font-semibold text-ink">{c.author.name}</p>
                  )}
                  <LocalTime iso={c.created_at} withTime className="text-xs text-gray-600" />
                </div>
                <p className="mt-1 whitespace-pre-line break-words text-[15px] leading-relaxed text-gray-800">
                  {c.body}
                </p>
                {canRemoveComment(viewer, { userId: c.author._id, blogAuthorId }) ? (
                  <div className="mt-2">
                    <ConfirmForm
                      fields={{ intent: "delete-comment", commentId: c._id }}
                      ask="delete"
                      tone="danger"
                      pendingText="Deleting…"
                      label={`Delete comment by ${c.author.name}`}
                    >
                      Delete
                    </ConfirmForm>
                  </div>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      {cursor ? (
        <p className="mt-6 text-center">
          <Link
            to={`?comments=${encodeURIComponent(cursor)}#comments`}
            onClick={showMore}
            aria-disabled={loading || undefined}
            className="inline-flex h-10 items-center justify-center rounded-full border border-gray-300 bg-white px-5 text-sm font-semibold text-gray-800 hover:bg-gray-50"
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
