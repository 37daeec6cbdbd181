import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { buttonClass, EmptyState, FILE_INPUT_CLASS } from "#app/components/ui.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { refusal } from "#app/lib/form-result.ts";
import { handleForm, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { IMPORT_MAX_BYTES } from "#worker/services/newsletter/model.ts";
import { tooLarge } from "#worker/services/shared/errors.ts";

export const handle = { title: "Newsletter" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Newsletter", matches);

export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q") ?? "";
  const state = url.searchParams.get("state") ?? "";
  const [list, sends] = await Promise.all([
    context.services.newsletter.subscribers(admin, { page: url.searchParams.get("page"), q, state }),
    context.services.newsletter.sends(admin, { page: url.searchParams.get("sends") }),
  ]);
  return { list, sends, q, state };
}

/** Import: a CSV file of addresses the admin vouches for; they become confirmed subscribers. */
export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request, "csv");
  if (form.get("intent") !== "import") return unknownAction(form);
  return handleForm(request, form, async () => {
    const file = form.get("file");
    if (typeof file !== "string" && file && file.size > IMPORT_MAX_BYTES)
      throw tooLarge("A CSV import can be at most 512 KB.");
    const text = typeof file === "string" || !file ? "" : await file.text();
    const result = await context.services.newsletter.importCsv(admin, text);
    return { ok: true as const, ...result };
  });
}

const SUBSCRIBER_STATES = ["pending", "confirmed", "unsubscribed"] as const;

const STATE_STYLE = {
  pending: "bg-amber-50 text-amber-800",
  confirmed: "bg-green-50 text-green-800",
  unsubscribed: "bg-gray-100 text-gray-700",
} as const;

function PageLinks({ page, pages, param, label }: { page: number; pages: number; param: string; label: string }) {
  const location = useLocation();
  if (pages <= 1) return null;
  const href = (n: number) => {
    const params = new URLSearchParams(location.search);
    params.set(param, String(n));
    return `${location.pathname}?${params.toString()}`;
  };
  const cls = buttonClass({ tone: "secondary", size: "sm" });
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-center gap-3 text-sm">
      {page > 1 ? (
        <Link to={href(page - 1)} className={cls}>
          Prev
        </Link>
      ) : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} className={cls}>
          Next
        </Link>
      ) : null}
    </nav>
  );
}

export default function Newsletter() {
  const { list, sends, q, state } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const imported = result && "imported" in result ? result : null;
  return (
    <>
      <DashboardHeader
        title="Newsletter"
        description="Subscribers and their state, CSV export and import of confirmed ones, and each post's send."
        actions={
          <a href="/api/newsletter/subscribers.csv" className={buttonClass({ tone: "secondary" })} download>
            Export confirmed (CSV)
          </a>
        }
      />

      <section aria-labelledby="subscribers-heading" className="flex flex-col gap-4">
        <h2 id="subscribers-heading" className="text-lg font-semibold text-ink">
          Subscribers
          <span className="ml-2 text-sm font-normal text-gray-600">
            {list.counts.confirmed} confirmed · {list.counts.pending} pending · {list.counts.unsubscribed} unsubscribed
          </span>
        </h2>
        <Form method="get" className="flex flex-col gap-2 sm:flex-row sm:items-end" role="search">
          <label className="flex flex-1 flex-col gap-1 text-sm font-medium text-gray-800">
            Search by address
            <input
              type="search"
              name="q"
              defaultValue={q}
              className="rounded-lg border border-gray-300 px-3 py-2 text-base"
              placeholder="name@example.com"
            />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium text-gray-800">
            State
            <select name="state" defaultValue={state} className="rounded-lg border border-gray-300 px-3 py-2 text-base">
              <option value="">Any</option>
              {SUBSCRIBER_STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={buttonClass({ tone: "primary" })}>
            Search
          </button>
        </Form>
        {list.subscribers.length === 0 ? (
          <EmptyState as="p">No subscribers match.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-2xl border border-gray-200 bg-white shadow-sm">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Subscribers, newest first ({list.total} found)</caption>
              <thead className="bg-gray-50 text-xs uppercase text-gray-600">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    Email
                  </th>
                  <th scope="col" className="px-4 py-3">
                    State
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Subscribed
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {list.subscribers.map((s) => (
                  <tr key={s._id}>
                    <td className="px-4 py-3 break-all text-ink">{s.email}</td>
                    <td className="px-4 py-3">
                      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLE[s.state]}`}>
                        {s.state}
                      </span>
                    </td>
                    <td className="px-4 py-3 text-gray-600">
                      {/* Only a confirmed address has subscribed; a pending or unsubscribed one has no such date. */}
                      {s.state === "confirmed" ? (
                        <LocalTime iso={s.confirmed_at ?? s.created_at} withTime />
                      ) : (
                        <span aria-label="Not subscribed">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <PageLinks page={list.page} pages={list.pages} param="page" label="Subscriber pages" />
      </section>

      <section aria-labelledby="import-heading" className="mt-10 flex flex-col gap-3">
        <h2 id="import-heading" className="text-lg font-semibold text-ink">
          Import confirmed subscribers
        </h2>
        <p className="text-sm text-gray-600">
          A CSV file with an <code>email</code> column (at most 5,000 rows, 512 KB). Import only people who agreed to
          get the newsletter: they are not asked to confirm again. Unsubscribed addresses stay unsubscribed.
        </p>
        {failure ? (
          <FormError message={failure.formError ?? failure.fields.file ?? "The file could not be imported."} />
        ) : null}
        {imported ? (
          <p role="status" className="rounded-lg bg-green-50 px-4 py-2 text-sm text-green-800">
            Imported {imported.imported}; {imported.skipped} already there
            {imported.invalid.length ? `; not addresses: ${imported.invalid.join(", ")}` : ""}.
          </p>
        ) : null}
        <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <input type="hidden" name="intent" value="import" />
          <label className="text-sm font-medium text-gray-800">
            <span className="sr-only">CSV file</span>
            <input type="file" name="file" accept=".csv,text/csv" required className={FILE_INPUT_CLASS} />
          </label>
          <SubmitButton pendingText="Importing…">Import CSV</SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="sends-heading" className="mt-10 flex flex-col gap-4">
        <h2 id="sends-heading" className="text-lg font-semibold text-ink">
          Sends
        </h2>
        {sends.sends.length === 0 ? (
          <EmptyState as="p">
            No post has been sent yet. Every newly published post goes to confirmed subscribers.
          </EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-2xl border border-gray-200 bg-white shadow-sm">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Each post's newsletter send, newest first</caption>
              <thead className="bg-gray-50 text-xs uppercase text-gray-600">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    Post
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Started
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    Queued
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    Sent
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    Failed
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {sends.sends.map((s) => (
                  <tr key={s.blog_id}>
                    <td className="px-4 py-3">
                      <Link to={`/blogs/${s.blog_id}`} className="font-medium text-brand-700 hover:underline">
                        {s.title}
                      </Link>
                    </td>
                    <td className="px-4 py-3 text-gray-600">
                      <LocalTime iso={s.started_at} withTime />
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{s.queued}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{s.sent}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{s.failed}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <PageLinks page={sends.page} pages={sends.pages} param="sends" label="Send pages" />
      </section>
    </>
  );
}
