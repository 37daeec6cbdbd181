import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { RowPostForm } from "#app/components/RowPostForm.tsx";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm.tsx";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { DataTable, numberColumn, PersonCell } from "#app/components/DataTable.tsx";
import { StarRating } from "#app/components/StarRating.tsx";
import { deleteAction, samePage } from "#app/lib/admin.server.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";

export const handle = { title: "Manage Review" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Manage Review", matches);

const REVIEWS_PER_PAGE = 20;

/** The filters above the table: every review, or those of one status (pending first, the admin's queue). */
const FILTERS = [
  ["all", "All"],
  ["pending", "Pending"],
  ["approved", "Approved"],
  ["hidden", "Hidden"],
] as const;

const STATUS_LOOK = {
  pending: "bg-amber-50 text-amber-800 ring-amber-200",
  approved: "bg-green-50 text-green-800 ring-green-200",
  hidden: "bg-gray-100 text-gray-700 ring-gray-300",
} as const;

/** One D1 round trip: a page of reviews (all, or of one status), newest first, and their total. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const url = new URL(request.url);
  const wanted = url.searchParams.get("status");
  const status = FILTERS.some(([key]) => key === wanted) ? wanted! : "all";
  const page = url.searchParams.get("page");
  return {
    status,
    reviews: await loadOr404(() => context.services.reviews.page({ page, limit: REVIEWS_PER_PAGE, status }, admin)),
  };
}

/** Delete (asked first), or approve / hide / send back to pending. */
export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  return deleteAction(request, (id) => context.services.reviews.remove(admin, id), {
    status: async (form) => {
      const status = String(form.get("status") ?? "");
      await context.services.reviews.setStatus(admin, String(form.get("id") ?? ""), { status });
      const title = status === "approved" || status === "hidden" ? MSG.review[status] : MSG.review.pending;
      return redirectWithFlash(samePage(request), { kind: "toast", icon: "success", title });
    },
  });
}

export default function ManageReview() {
  const { reviews, status } = useLoaderData<typeof loader>();
  return (
    <>
      <DashboardHeader
        title="Manage Review"
        description="Feedback from readers. Only approved reviews are shown in the home page's testimonials slider."
      />
      <nav aria-label="Review status" className="mb-4 flex flex-wrap gap-2">
        {FILTERS.map(([key, label]) => (
          <Link
            key={key}
            to={key === "all" ? "/dashboard/manageReview" : `/dashboard/manageReview?status=${key}`}
            aria-current={status === key ? "page" : undefined}
            className={rowActionClass(status === key ? "primary" : "neutral")}
          >
            {label}
          </Link>
        ))}
      </nav>
      <DataTable
        caption="Reviews"
        rows={reviews.items}
        rowKey={(r) => r._id}
        empty={status === "all" ? "No feedback yet." : "No reviews with this status."}
        columns={[
          numberColumn((reviews.page - 1) * reviews.limit),
          {
            header: "Name",
            mobile: "title",
            cell: (r) => (
              <PersonCell photo={r.image} name={r.name}>
                <span className="block text-xs text-gray-500">{r.designation}</span>
              </PersonCell>
            ),
          },
          { header: "Rating", cell: (r) => <StarRating value={r.rating} size={16} /> },
          {
            header: "Review",
            // The whole review: an admin approves what they have read, not its first two lines.
            cell: (r) => <span className="whitespace-pre-line break-words text-gray-700 sm:max-w-md">{r.review}</span>,
          },
          {
            // The status and the buttons that change it share one column, so the table fits at 1280 px.
            header: "Status",
            cell: (r) => (
              <span className="flex flex-col items-start gap-2">
                <span
                  className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${STATUS_LOOK[r.status]}`}
                >
                  {MSG.review.label[r.status]}
                </span>
                <span className="inline-flex gap-2">
                  {r.status !== "approved" ? (
                    <RowPostForm
                      fields={{ intent: "status", id: r._id, status: "approved" }}
                      tone="primary"
                      pendingText="Approving…"
                    >
                      Approve<span className="sr-only"> the review by {r.name}</span>
                    </RowPostForm>
                  ) : null}
                  {r.status !== "hidden" ? (
                    <RowPostForm fields={{ intent: "status", id: r._id, status: "hidden" }} pendingText="Hiding…">
                      Hide<span className="sr-only"> the review by {r.name}</span>
                    </RowPostForm>
                  ) : null}
                </span>
              </span>
            ),
          },
          {
            header: "Edit",
            action: true,
            cell: (r) => (
              <Link to={`/dashboard/editReview/${r._id}`} className={rowActionClass()}>
                Edit<span className="sr-only"> the review by {r.name}</span>
              </Link>
            ),
          },
          {
            header: "Delete",
            action: true,
            cell: (r) => (
              <ConfirmForm fields={{ intent: "delete", id: r._id }} tone="danger" ask="delete" pendingText="Deleting…">
                Delete<span className="sr-only"> the review by {r.name}</span>
              </ConfirmForm>
            ),
          },
        ]}
      />
      {reviews.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={reviews.page} pages={reviews.pages} label="Review pages" />
        </div>
      ) : null}
    </>
  );
}
