import type { BlogStatus } from "#worker/services/blogs/visible.ts";
import { LocalTime } from "./LocalTime";

/**
 * Marks a post that readers cannot see yet (a draft, or scheduled for later) wherever its writer or an
 * admin lists it. A published post needs no mark, so nothing is drawn. Where it must wrap, it breaks
 * between its label and its date into a rounded box (never a tall oval at 375 px), and it brings no margin
 * of its own: where it sits, the parent spaces it (issue 47).
 */
export function StatusBadge({ status, publishAt }: { status?: BlogStatus; publishAt?: string | null }) {
  if (!status || status === "published") return null;
  const scheduled = status === "scheduled" && publishAt;
  return (
    <span
      data-testid="status-badge"
      className={`inline-flex w-fit max-w-full flex-wrap gap-x-1 rounded-md px-2 py-0.5 align-middle text-xs font-semibold ${
        scheduled
          ? "bg-amber-50 text-amber-800 ring-1 ring-amber-200"
          : "bg-gray-100 text-gray-700 ring-1 ring-gray-300"
      }`}
    >
      {scheduled ? (
        <>
          <span>{"Scheduled · "}</span>
          <LocalTime iso={publishAt} withTime />
        </>
      ) : (
        "Draft"
      )}
    </span>
  );
}
