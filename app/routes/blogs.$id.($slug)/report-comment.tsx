import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { buttonClass } from "#app/components/ui.tsx";
import { refusal, type FormFailure } from "#app/lib/form-result.ts";
import type { Comment } from "#worker/services/comments/queries.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { REPORT_REASONS, REPORT_REASON_LABELS } from "#worker/services/texts.ts";
import { succeeded, type Done } from "./reactions";
import type { action } from "./route";

export const REPORTED_TEXT = "Reported. Thank you, an admin will look at it.";
const WITHDRAWN_TEXT = "Your report is withdrawn.";

/** What the page knows about the reader's report of one comment (its loader, or a form post's answer without JavaScript). */
export interface ReportState {
  reported: boolean;
  /** Just withdrawn (a form post without JavaScript): say so beside Report. */
  withdrawn?: boolean;
  /** A refused report sent without JavaScript. */
  failure?: FormFailure;
}

/** The page's reports: the reader's (loader), and the answer of a report or withdrawal posted without JavaScript. */
export interface PageReports {
  reported: readonly string[];
  answer: { intent: "report-comment" | "withdraw-report"; commentId: string } | null;
  failure: FormFailure | null;
}

/** The page's reports from its loader's ids and its action's answer (a form post without JavaScript). */
export function pageReports(reported: readonly string[], actionData: unknown): PageReports {
  const done = actionData as Done;
  const failure = refusal(actionData);
  const answered = succeeded(actionData, "report-comment") || succeeded(actionData, "withdraw-report");
  return {
    reported,
    answer: answered ? { intent: done.intent as "report-comment", commentId: done.commentId ?? "" } : null,
    failure: failure?.values.intent === "report-comment" ? failure : null,
  };
}

export function reportStateOf(page: PageReports, commentId: string): ReportState {
  const answered = page.answer?.commentId === commentId ? page.answer.intent : null;
  return {
    reported: answered ? answered === "report-comment" : page.reported.includes(commentId),
    withdrawn: answered === "withdraw-report",
    failure: page.failure?.values.commentId === commentId ? page.failure : undefined,
  };
}

const linkButton =
  "text-xs font-semibold text-gray-600 underline-offset-2 hover:text-red-700 hover:underline disabled:cursor-wait";

/**
 * Report: anyone signed in but the commenter, once, with a reason (spam, abuse, or something else in a
 * few words). The form opens in a <details>, so it works without JavaScript; with it, it posts through a
 * fetcher. Once reported, it says so and offers "Withdraw report"; the page's loader remembers both.
 */
/**
 * A <details> in a comment's row of actions (Reply, Report) whose opened form takes the row's full width
 * below it: the details box steps aside (contents), so its summary stays an item of the row where it was, and
 * its content (::details-content) goes last at full width. Nothing under the pointer moves when it opens.
 */
export const detailsPanel = "contents [&::details-content]:order-last [&::details-content]:basis-full";

export function ReportControl({ comment, state }: { comment: Comment; state: ReportState }) {
  const fetcher = useFetcher<typeof action>();
  const confirmation = useRef<HTMLSpanElement>(null);
  const reportButton = useRef<HTMLElement>(null);
  // The reader's last answer here outranks the page's data until the revalidated loader agrees with it.
  const reported = succeeded(fetcher.data, "report-comment")
    ? true
    : succeeded(fetcher.data, "withdraw-report")
      ? false
      : state.reported;
  const withdrawn = succeeded(fetcher.data, "withdraw-report") || (!fetcher.data && state.withdrawn);
  const failure = fetcher.data ? (refusal(fetcher.data) ?? undefined) : state.failure;
  const pending = fetcher.state !== "idle";
  const name = comment.author.name;
  const ids = { fieldset: `report-${comment._id}`, error: `report-${comment._id}-error` };
  const error = failure ? (failure.fields.reason ?? failure.fields.note ?? failure.formError) : undefined;

  // The button pressed is gone once the answer comes: focus goes to what replaced it.
  useEffect(() => {
    if (fetcher.state !== "idle") return;
    if (succeeded(fetcher.data, "report-comment")) confirmation.current?.focus();
    if (succeeded(fetcher.data, "withdraw-report")) reportButton.current?.focus();
  }, [fetcher.state, fetcher.data]);

  if (reported) {
    return (
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span ref={confirmation} tabIndex={-1} role="status" className="text-xs font-medium text-gray-600">
          {REPORTED_TEXT}
        </span>
        <fetcher.Form method="post" className="inline">
          <input type="hidden" name="intent" value="withdraw-report" />
          <input type="hidden" name="commentId" value={comment._id} />
          <button type="submit" disabled={pending} className={linkButton}>
            {pending ? "Withdrawing…" : "Withdraw report"}
            <span className="sr-only"> of the comment by {name}</span>
          </button>
        </fetcher.Form>
      </span>
    );
  }

  return (
    <>
      {withdrawn ? (
        <span role="status" className="text-xs font-medium text-gray-600">
          {WITHDRAWN_TEXT}
        </span>
      ) : null}
      <details className={detailsPanel} open={failure ? true : undefined}>
        <summary
          ref={reportButton}
          className={`${linkButton} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}
        >
          Report<span className="sr-only"> comment by {name}</span>
        </summary>
        <fetcher.Form method="post" className="mt-2 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
          <input type="hidden" name="intent" value="report-comment" />
          <input type="hidden" name="commentId" value={comment._id} />
          <fieldset
            id={ids.fieldset}
            aria-describedby={error ? ids.error : undefined}
            className="group/reasons flex flex-col gap-2"
          >
            <legend className="mb-1 text-sm font-semibold text-ink">Why are you reporting this comment?</legend>
            {REPORT_REASONS.map((reason) => (
              <label key={reason} className="flex items-center gap-2 text-sm text-gray-800">
                <input
                  type="radio"
                  name="reason"
                  value={reason}
                  required
                  defaultChecked={failure?.values.reason === reason}
                  className={`h-4 w-4 accent-brand-600 ${reason === "other" ? "report-other" : ""}`}
                />
                {REPORT_REASON_LABELS[reason]}
              </label>
            ))}
            {/* Only "Something else" takes words: the field shows once it is chosen (CSS, so without JavaScript too). */}
            <label className="hidden flex-col gap-1 text-sm text-gray-800 group-has-[.report-other:checked]/reasons:flex">
              <span>In a few words, what is wrong with it? (optional)</span>
              <input
                type="text"
                name="note"
                maxLength={LIMITS.reportNote}
                defaultValue={failure?.values.note}
                className="block w-full rounded-lg border border-gray-300 px-3 py-2 text-[15px] text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
              />
            </label>
          </fieldset>
          {error ? (
            <p id={ids.error} role="alert" className="mt-2 text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <button
            type="submit"
            disabled={pending}
            aria-busy={pending || undefined}
            className={buttonClass({ className: "mt-3" })}
          >
            {pending ? "Sending…" : "Send report"}
          </button>
        </fetcher.Form>
      </details>
    </>
  );
}
