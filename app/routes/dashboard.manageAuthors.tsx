import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm.tsx";
import { DashboardHeader, buttonPrimary } from "#app/components/DashboardHeader.tsx";
import { DataTable, numberColumn, PersonCell } from "#app/components/DataTable.tsx";
import { deleteAction } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";

export const handle = { title: "Manage Authors" };

export const meta: MetaFunction = () => dashboardMeta("Manage Authors");

/** One D1 query: every author, in the order the home page shows them. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  return { authors: await context.services.authors.adminList(admin) };
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
        rows={authors}
        rowKey={(a) => a._id}
        empty="No authors yet. Add the first one."
        columns={[
          numberColumn(),
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
    </>
  );
}
