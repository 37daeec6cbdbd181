import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmForm } from "#app/components/ConfirmForm.tsx";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { DataTable, numberColumn, PersonCell } from "#app/components/DataTable.tsx";
import { FormError } from "#app/components/form.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { TableSearch } from "#app/components/TableSearch.tsx";
import { samePage } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { refusal } from "#app/lib/form-result.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import type { FormFailure } from "#app/lib/form-result.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { useFailureAlert } from "#app/lib/use-failure-alert.ts";
import { Forbidden } from "#worker/services/shared/errors.ts";
import { MAX_SEARCH_CHARS } from "#worker/services/shared/limits.ts";

export const handle = { title: "Manage Users" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Manage Users", matches);

const USERS_PER_PAGE = 20;

/** One D1 round trip: a page of accounts (optionally a search by name or email), the total and the admins. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, MAX_SEARCH_CHARS);
  const users = await loadOr404(() =>
    context.services.users.list(admin, { page: url.searchParams.get("page"), limit: USERS_PER_PAGE, q }),
  );
  // Deleting the last account of the last page lands past the end: show the new last page instead.
  if (users.page > users.pages) {
    const back = new URLSearchParams(url.search);
    if (users.pages > 1) back.set("page", String(users.pages));
    else back.delete("page");
    throw redirect(`${url.pathname}${back.size ? `?${back}` : ""}`);
  }
  return { users, q, me: admin.id };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  const here = samePage(request);
  const users = context.services.users;
  return handleForm(request, form, async () => {
    if (intent === "make-admin") {
      await users.makeAdmin(admin, id);
      return redirectWithFlash(here, { kind: "toast", title: MSG.delete.madeAdmin });
    }
    if (intent === "remove-admin") {
      await users.revokeAdmin(admin, id);
      return redirectWithFlash(here, { kind: "toast", title: MSG.admin.adminRemoved });
    }
    if (intent === "delete") {
      try {
        await users.remove(admin, id);
      } catch (err) {
        // The service's own refusal (an admin deleting themselves) is shown on the page, not as a 403 page.
        if (err instanceof Forbidden && err.code === "cannot-delete-self") {
          return data<FormFailure>(
            { ok: false, code: err.code, formError: err.message, fields: {}, values: {} },
            { status: 403 },
          );
        }
        throw err;
      }
      return redirectWithFlash(here, { kind: "toast", title: MSG.delete.userDeleted });
    }
    return unknownAction(form);
  });
}

export default function ManageUsers() {
  const { users, q, me } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  useFailureAlert(result, MSG.admin.actionFailedTitle);
  const admins = users.admins;
  const offset = (users.page - 1) * users.limit;
  const total = users.total;

  return (
    <>
      <DashboardHeader
        title="Manage Users"
        description={
          q
            ? `${total} ${total === 1 ? "account matches" : "accounts match"} “${q}”`
            : `${total} ${total === 1 ? "account" : "accounts"}, ${admins} ${admins === 1 ? "admin" : "admins"}`
        }
      />
      <TableSearch q={q} label="Search users by name or email" placeholder="Search by name or email" />
      <div className="mb-4">
        <FormError message={failure?.formError} />
      </div>
      <DataTable
        caption="Users"
        rows={users.items}
        rowKey={(u) => u._id}
        empty={q ? "No account matches this search." : "No users yet."}
        columns={[
          numberColumn(offset),
          {
            header: "Name",
            mobile: "title",
            cell: (u) => (
              <PersonCell
                photo={u.photoURL}
                name={
                  <>
                    {u.name}
                    {u._id === me ? <span className="ml-1.5 text-xs font-normal text-gray-500">(you)</span> : null}
                  </>
                }
              />
            ),
          },
          {
            header: "Email",
            cell: (u) => (
              <span className="break-all text-gray-700 sm:break-normal sm:whitespace-nowrap">{u.email}</span>
            ),
          },
          {
            header: "Make Admin",
            action: true,
            cell: (u) =>
              u.role === "admin" ? (
                <span className="flex flex-wrap items-center gap-2">
                  <button
                    type="button"
                    disabled
                    className="inline-flex min-h-9 items-center rounded-full border border-green-200 bg-green-50 px-3.5 py-1.5 text-sm font-semibold text-green-800"
                  >
                    Admin
                  </button>
                  <ConfirmForm
                    fields={{ intent: "remove-admin", id: u._id }}
                    disabled={u._id === me || admins <= 1}
                    title={
                      u._id === me
                        ? "You cannot remove your own admin rights."
                        : admins <= 1
                          ? "The last admin cannot be removed."
                          : undefined
                    }
                    ask="remove-admin"
                    pendingText="Removing…"
                  >
                    Remove admin<span className="sr-only"> from {u.name}</span>
                  </ConfirmForm>
                </span>
              ) : (
                <ConfirmForm
                  fields={{ intent: "make-admin", id: u._id }}
                  tone="primary"
                  ask="make-admin"
                  pendingText="Saving…"
                >
                  Make Admin<span className="sr-only">: {u.name}</span>
                </ConfirmForm>
              ),
          },
          {
            header: "Delete",
            action: true,
            cell: (u) => (
              <ConfirmForm
                fields={{ intent: "delete", id: u._id }}
                tone="danger"
                disabled={u._id === me}
                title={u._id === me ? "You cannot delete your own account." : undefined}
                ask="delete-user"
                detailUrl={`/dashboard/users/${u._id}/holdings`}
                pendingText="Deleting…"
              >
                Delete<span className="sr-only"> {u.name}</span>
              </ConfirmForm>
            ),
          },
        ]}
      />
      {users.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={users.page} pages={users.pages} label="Users pages" />
        </div>
      ) : null}
    </>
  );
}
