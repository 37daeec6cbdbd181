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
import { LocalTime } from "#app/components/LocalTime.tsx";
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

/** The filters above the table: each value with its words ("" is no filter). */
const ROLE_FILTERS = [
  ["", "Any role"],
  ["admin", "Admins"],
  ["user", "Members"],
] as const;
const CONFIRMED_FILTERS = [
  ["", "Confirmed or not"],
  ["yes", "Address confirmed"],
  ["no", "Not confirmed"],
] as const;

const selectClass =
  "h-10 rounded-lg border border-gray-300 bg-white px-2 text-sm text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <label className="flex items-center">
      <span className="sr-only">{label}</span>
      <select name={name} defaultValue={value} className={selectClass}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

const pill = "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap";

/** One D1 round trip: a page of accounts (optionally a search by name or email), the total and the admins. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, MAX_SEARCH_CHARS);
  const filters = {
    role: ROLE_FILTERS.find(([value]) => value === url.searchParams.get("role"))?.[0] ?? "",
    confirmed: CONFIRMED_FILTERS.find(([value]) => value === url.searchParams.get("confirmed"))?.[0] ?? "",
  };
  const users = await loadOr404(() =>
    context.services.users.manage(admin, { page: url.searchParams.get("page"), limit: USERS_PER_PAGE, q, ...filters }),
  );
  // Deleting the last account of the last page lands past the end: show the new last page instead.
  if (users.page > users.pages) {
    const back = new URLSearchParams(url.search);
    if (users.pages > 1) back.set("page", String(users.pages));
    else back.delete("page");
    throw redirect(`${url.pathname}${back.size ? `?${back}` : ""}`);
  }
  return { users, q, filters, me: admin.id };
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
  const { users, q, filters, me } = useLoaderData<typeof loader>();
  const filtered = Boolean(filters.role || filters.confirmed);
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
          q || filtered
            ? `${total} ${total === 1 ? "account matches" : "accounts match"}${q ? ` “${q}”` : " these filters"}`
            : `${total} ${total === 1 ? "account" : "accounts"}, ${admins} ${admins === 1 ? "admin" : "admins"}`
        }
      />
      <TableSearch
        q={q}
        label="Search users by name or email"
        placeholder="Search by name or email"
        filtered={filtered}
      >
        <FilterSelect name="role" label="Role" value={filters.role} options={ROLE_FILTERS} />
        <FilterSelect
          name="confirmed"
          label="Address confirmed"
          value={filters.confirmed}
          options={CONFIRMED_FILTERS}
        />
      </TableSearch>
      <div className="mb-4">
        <FormError message={failure?.formError} />
      </div>
      <DataTable
        caption="Users"
        rows={users.items}
        rowKey={(u) => u._id}
        empty={q || filtered ? "No account matches this search." : "No users yet."}
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
              >
                {u.placeholder ? (
                  <span className="block text-xs whitespace-nowrap text-gray-600">Imported author</span>
                ) : null}
              </PersonCell>
            ),
          },
          {
            header: "Email",
            cell: (u) => (
              <span className="break-all text-gray-700 sm:break-normal sm:whitespace-nowrap">{u.email}</span>
            ),
          },
          {
            header: "Confirmed",
            cell: (u) =>
              u.emailVerified ? (
                <span className={`${pill} bg-green-50 text-green-800`}>Confirmed</span>
              ) : (
                <span className={`${pill} bg-gray-100 text-gray-700`}>Not confirmed</span>
              ),
          },
          {
            header: "Joined",
            cell: (u) => <LocalTime iso={u.joinedAt} className="whitespace-nowrap text-gray-700" />,
          },
          {
            header: "Posts",
            cell: (u) => <span className="tabular-nums text-gray-700">{u.posts}</span>,
          },
          {
            header: "Make Admin",
            action: true,
            cell: (u) =>
              u.placeholder ? (
                <span className="text-xs whitespace-nowrap text-gray-600">
                  Cannot sign in<span className="sr-only">: {u.name} cannot be made an admin</span>
                </span>
              ) : u.role === "admin" ? (
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
