import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm";
import { DashboardHeader } from "#app/components/DashboardHeader";
import { DataTable } from "#app/components/DataTable";
import { StarRating } from "#app/components/StarRating";
import { deleteAction } from "#app/lib/admin.server";
import { dashboardMeta } from "#app/lib/dashboard";
import { confirmDelete } from "#app/lib/dialogs";
import { adminOrForbidden } from "#app/lib/guards.server";

export const handle = { title: "Manage Review" };

export const meta: MetaFunction = () => dashboardMeta("Manage Review");

export async function loader({ context, request }: LoaderFunctionArgs) {
  adminOrForbidden(context, request);
  return { reviews: await context.services.reviews.list() };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  return deleteAction(request, (id) => context.services.reviews.remove(admin, id));
}

export default function ManageReview() {
  const { reviews } = useLoaderData<typeof loader>();
  return (
    <>
      <DashboardHeader
        title="Manage Review"
        description="Feedback from readers, shown in the home page's testimonials slider."
      />
      <DataTable
        caption="Reviews"
        rows={reviews}
        rowKey={(r) => r._id}
        empty="No feedback yet."
        columns={[
          {
            header: "#",
            cell: (_, i) => <span className="text-gray-500 tabular-nums">{i + 1}</span>,
            className: "sm:w-12",
            mobile: "hide",
          },
          {
            header: "Name",
            mobile: "title",
            cell: (r) => (
              <span className="flex min-w-0 items-center gap-3">
                <img
                  src={r.image}
                  alt=""
                  width={40}
                  height={40}
                  loading="lazy"
                  className="h-10 w-10 shrink-0 rounded-full object-cover"
                />
                <span className="min-w-0">
                  <span className="block font-medium text-ink">{r.name}</span>
                  <span className="block text-xs text-gray-500">{r.designation}</span>
                </span>
              </span>
            ),
          },
          { header: "Rating", cell: (r) => <StarRating value={r.rating} size={16} /> },
          {
            header: "Review",
            cell: (r) => <span className="line-clamp-2 text-gray-700 sm:max-w-md">{r.review}</span>,
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
              <ConfirmForm
                fields={{ intent: "delete", id: r._id }}
                tone="danger"
                confirm={confirmDelete}
                pendingText="Deleting…"
              >
                Delete<span className="sr-only"> the review by {r.name}</span>
              </ConfirmForm>
            ),
          },
        ]}
      />
    </>
  );
}
