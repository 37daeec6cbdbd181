import type { BlogStatus } from "#worker/services/blogs/visible.ts";
import { LocalTime } from "./LocalTime";

/**
 * Marks a post that readers cannot see yet (a draft, or scheduled for later) wherever its writer or an
 * admin lists it. A published post needs no mark, so nothing is drawn.
 */
export function StatusBadge({ status, publishAt }: { status?: BlogStatus; publishAt?: string | null }) {
  if (!status || status === "published") return null;
  const scheduled = status === "scheduled" && publishAt;
  return (
    <span
      className={`ml-2 inline-block w-fit rounded-full px-2.5 py-0.5 align-middle text-xs font-semibold ${
        scheduled
          ? "bg-amber-50 text-amber-800 ring-1 ring-amber-200"
          : "bg-gray-100 text-gray-700 ring-1 ring-gray-300"
      }`}
    >
      {scheduled ? (
        <>
          Scheduled · <LocalTime iso={publishAt} withTime />
        </>
      ) : (
        "Draft"
      )}
    </span>
  );
}
