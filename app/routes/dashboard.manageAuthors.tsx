import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm.tsx";
import { DashboardHeader, buttonPrimary } from "#app/components/DashboardHeader.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { DataTable, numberColumn, PersonCell } from "#app/components/DataTable.tsx";
import { deleteAction } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";

export const handle = { title: "Manage Authors" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Manage Authors", matches);

const AUTHORS_PER_PAGE = 20;

/** One D1 round trip: a page of authors, in the order the home page shows them, and their total. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const page = new URL(request.url).searchParams.get("page");
  return {
    authors: await loadOr404(() => context.services.authors.page(admin, { page, limit: AUTHORS_PER_PAGE }, true)),
  };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  return deleteAction(request, (id) => context.services.authors.remove(admin, id));
}

export default function ManageAuthors() {
  const { authors } = useLoaderData<typeof loader>();
  return (
    <>
      <DashboardHeader
        title="Manage Authors"
        description="The people shown in Meet Our Authors on the home page, in this order."
        actions={
          <Link to="/dashboard/addAuthor" className={buttonPrimary}>
            Add Author
          </Link>
        }
      />
      <DataTable
        caption="Authors"
        rows={authors.items}
        rowKey={(a) => a._id}
        empty="No authors yet. Add the first one."
        columns={[
          numberColumn((authors.page - 1) * authors.limit),
          {
            header: "Name",
            mobile: "title",
            cell: (a) => <PersonCell photo={a.img} name={a.name} />,
            className: "sm:whitespace-nowrap",
          },
          { header: "Bio", cell: (a) => <span className="line-clamp-2 text-gray-700">{a.bio}</span> },
          {
            header: "Edit",
            action: true,
            cell: (a) => (
              <Link to={`/dashboard/updateAuthor/${a._id}`} className={rowActionClass()}>
                Edit<span className="sr-only"> {a.name}</span>
              </Link>
            ),
          },
          {
            header: "Delete",
            action: true,
            cell: (a) => (
              <ConfirmForm fields={{ intent: "delete", id: a._id }} tone="danger" ask="delete" pendingText="Deleting…">
                Delete<span className="sr-only"> {a.name}</span>
              </ConfirmForm>
            ),
          },
        ]}
      />
      {authors.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={authors.page} pages={authors.pages} label="Author pages" />
        </div>
      ) : null}
    </>
  );
}
