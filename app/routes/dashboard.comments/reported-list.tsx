import { Form, Link, useNavigation } from "@remix-run/react";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { EmptyState } from "#app/components/ui.tsx";
import { postPath } from "#worker/services/blogs/slug.ts";
import type { ReportedComment } from "#worker/services/comments/reports.ts";
import { REPORT_REASONS, REPORT_REASON_LABELS } from "#worker/services/texts.ts";

/** The admins' list: each reported comment, how many reports gave each reason, the reporters' notes, Keep and Delete. */
export function ReportedList({ items }: { items: ReportedComment[] }) {
  const navigation = useNavigation();
  if (items.length === 0) return <EmptyState as="p">No reported comments. All quiet.</EmptyState>;
  return (
    <ul className="flex flex-col gap-4" aria-label="Reported comments">
      {items.map((c) => {
        const keeping = navigation.formData?.get("intent") === "keep" && navigation.formData?.get("id") === c._id;
        return (
          <li key={c._id}>
            <article
              aria-labelledby={`rc-${c._id}`}
              className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5"
            >
              <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <h2 id={`rc-${c._id}`} className="text-sm font-semibold text-ink">
                  {c.author.name}
                  <span className="font-normal text-gray-600">
                    {" "}
                    {c.parent_id ? "replied on" : "commented on"}{" "}
                    <Link
                      to={`${postPath({ id: c.blog._id, title: c.blog.title })}#comment-${c._id}`}
                      className="font-medium text-brand-700 hover:underline"
                    >
                      {c.blog.title}
                    </Link>
                  </span>
                </h2>
                <span className="rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-semibold text-red-700">
                  {c.reports === 1 ? "1 report" : `${c.reports} reports`}
                </span>
              </header>
              <p className="mt-1 text-xs text-gray-600">
                Written <LocalTime iso={c.created_at} withTime /> · last reported{" "}
                <LocalTime iso={c.last_reported_at} withTime />
              </p>
              <p className="mt-3 rounded-xl bg-gray-50 px-4 py-3 text-[15px] break-words whitespace-pre-line text-gray-800">
                {c.body}
              </p>
              <Reasons comment={c} />
              <div className="mt-3 flex flex-wrap gap-2">
                <Form method="post" className="inline">
                  <input type="hidden" name="intent" value="keep" />
                  <input type="hidden" name="id" value={c._id} />
                  <button
                    type="submit"
                    disabled={keeping}
                    aria-label={`Keep comment by ${c.author.name}`}
                    className={rowActionClass()}
                  >
                    {keeping ? "Keeping…" : "Keep"}
                  </button>
                </Form>
                <ConfirmForm
                  fields={{ intent: "delete", id: c._id }}
                  ask="delete"
                  tone="danger"
                  pendingText="Deleting…"
                  label={`Delete comment by ${c.author.name}`}
                >
                  Delete
                </ConfirmForm>
              </div>
            </article>
          </li>
        );
      })}
    </ul>
  );
}

/** Why it was reported: the number of reports per reason (the ones given), then the newest notes in the reporters' words. */
function Reasons({ comment }: { comment: ReportedComment }) {
  const given = REPORT_REASONS.filter((reason) => comment.reasons[reason] > 0);
  return (
    <div className="mt-3 text-sm text-gray-800">
      <ul className="flex flex-wrap gap-2" aria-label={`Reasons for reporting the comment by ${comment.author.name}`}>
        {given.map((reason) => (
          <li key={reason} className="rounded-full border border-gray-200 px-2.5 py-0.5 text-xs font-medium">
            {REPORT_REASON_LABELS[reason]}: {comment.reasons[reason]}
          </li>
        ))}
      </ul>
      {comment.notes.length ? (
        <ul
          className="mt-2 flex flex-col gap-1"
          aria-label={`Notes from the people who reported ${comment.author.name}`}
        >
          {comment.notes.map((n) => (
            <li key={`${n.reporter._id}`} className="text-sm text-gray-700">
              <q className="break-words">{n.note}</q> <span className="text-gray-600">({n.reporter.name})</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
