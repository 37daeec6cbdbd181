import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import { buttonClass } from "#app/components/ui.tsx";
import { refusal, type FormFailure } from "#app/lib/form-result.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { succeeded, type Done } from "./reactions";
import type { action } from "./route";

/** The id of the post page's polite live region that says a comment was posted. */
export const COMMENT_ANNOUNCER = "comment-announcer";
const POSTED = "Your comment was posted.";

export function CommentForm({
  blogId,
  parentId,
  failure,
  onSent,
}: {
  blogId: string;
  /** A reply form names the comment it answers. */
  parentId?: string;
  failure?: FormFailure;
  onSent: () => void;
}) {
  const fetcher = useFetcher<typeof action>();
  const form = useRef<HTMLFormElement>(null);
  const pending = fetcher.state !== "idle";
  const failed = fetcher.data ? refusal(fetcher.data) : failure;
  const error = failed ? (failed.fields.body ?? failed.formError) : undefined;
  const key = parentId ? `reply-${parentId}` : `comment-${blogId}`;
  const errorId = `${key}-error`;
  // Only a hydrated form posts through the fetcher; the action answers it with data instead of a redirect.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // onSent is a fresh closure each render; only a new answer matters.
  useOnActionResult(fetcher.data, (data) => {
    if (succeeded(data, "comment")) {
      form.current?.reset();
      onSent();
      showNewComment((data as Done).commentId);
    }
  });

  return (
    <fetcher.Form
      ref={form}
      method="post"
      className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm"
      noValidate
    >
      <input type="hidden" name="intent" value="comment" />
      {hydrated ? <input type="hidden" name="via" value="fetch" /> : null}
      {parentId ? <input type="hidden" name="parent_id" value={parentId} /> : null}
      <label htmlFor={key} className="text-sm font-semibold text-ink">
        {parentId ? "Your reply" : "Your comment"}
      </label>
      <textarea
        id={key}
        name="body"
        rows={parentId ? 3 : 4}
        maxLength={LIMITS.comment}
        required
        defaultValue={failure?.values.body}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={parentId ? "Write a reply…" : "What did you think?"}
        className="mt-2 block w-full rounded-lg border border-gray-300 px-3 py-2 text-[15px] text-ink shadow-sm placeholder:text-gray-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-500"
      />
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex items-center justify-between gap-3">
        <p className="text-xs text-gray-600">Up to {LIMITS.comment.toLocaleString("en-US")} characters.</p>
        <button type="submit" disabled={pending} aria-busy={pending || undefined} className={buttonClass()}>
          {pending ? (
            <span
              className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
              aria-hidden="true"
            />
          ) : null}
          {pending ? "Sending…" : parentId ? "Reply" : "Send"}
        </button>
      </div>
    </fetcher.Form>
  );
}

/**
 * After commenting: the new comment is scrolled into view, focused and highlighted, and the
 * page's polite live region says it was posted. The fetcher's answer can land before the revalidated list
 * that holds the new comment has rendered, so the comment is looked for again for up to three seconds.
 */
function showNewComment(id: string | undefined, tries = 60) {
  const live = document.getElementById(COMMENT_ANNOUNCER);
  if (live && tries === 60) live.textContent = POSTED;
  const el = id ? document.getElementById(`comment-${id}`) : null;
  if (!el) {
    if (id && tries > 0) window.setTimeout(() => showNewComment(id, tries - 1), 50);
    return;
  }
  el.tabIndex = -1;
  el.scrollIntoView({
    block: "center",
    behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth",
  });
  el.focus({ preventScroll: true });
  el.dataset.fresh = "true";
}
