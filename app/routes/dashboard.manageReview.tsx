import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm.tsx";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { DataTable, numberColumn, PersonCell } from "#app/components/DataTable.tsx";
import { StarRating } from "#app/components/StarRating.tsx";
import { deleteAction } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";

export const handle = { title: "Manage Review" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Manage Review", matches);

const REVIEWS_PER_PAGE = 20;

/** One D1 round trip: a page of reviews, newest first, and their total. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  adminOrForbidden(context, request);
  const page = new URL(request.url).searchParams.get("page");
  return { reviews: await loadOr404(() => context.services.reviews.page({ page, limit: REVIEWS_PER_PAGE })) };
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
        rows={reviews.items}
        rowKey={(r) => r._id}
        empty="No feedback yet."
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
