import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { SubscribedAt } from "#app/components/SubscribedAt.tsx";
import { ConfirmForm } from "#app/components/ConfirmForm.tsx";
import { DataTable } from "#app/components/DataTable.tsx";
import {
  AUDIENCE_CHOICES,
  AUDIENCE_LABEL,
  CONTENT_CHOICES,
  NewsletterDefaults,
} from "#app/components/NewsletterDefaults.tsx";
import { buttonClass, FILE_INPUT_CLASS } from "#app/components/ui.tsx";
import { samePage } from "#app/lib/admin.server.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
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
  const [list, sends, content, audience] = await Promise.all([
    context.services.newsletter.subscribers(admin, { page: url.searchParams.get("page"), q, state }),
    context.services.newsletter.sends(admin, { page: url.searchParams.get("sends") }),
    context.services.newsletter.contentDefault(admin),
    context.services.newsletter.audienceDefault(admin),
  ]);
  return { list, sends, q, state, content, audience };
}

/**
 * What subscribers get by default (the teaser and a link, or the whole post; a post may choose otherwise),
 * import (a CSV file of addresses the admin vouches for; they become confirmed subscribers) and a row's
 * Remove (asked first: the dialog with JavaScript, the /confirm page without; then the same page, without it).
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request, "csv");
  const intent = form.get("intent");
  if (intent === "content")
    return handleForm(request, form, async () => {
      const content = form.get("content");
      const audience = form.get("audience");
      const { modifiedCount } = await context.services.newsletter.setDefaults(admin, {
        content,
        audience: audience ?? undefined,
      });
      const chosen = CONTENT_CHOICES.find((c) => c.value === content)?.label.toLowerCase() ?? String(content);
      const to = AUDIENCE_CHOICES.find((c) => c.value === audience)?.label.toLowerCase();
      const what = to ? `${chosen} to ${to}` : chosen;
      const text = modifiedCount ? `New posts now send ${what} by default.` : `Already ${what}: nothing changed.`;
      return redirectWithFlash(samePage(request), { kind: "toast", icon: "success", title: "Newsletter saved", text });
    });
  if (intent === "remove")
    return handleForm(request, form, async () => {
      const { email } = await context.services.newsletter.remove(admin, form.get("id"));
      return redirectWithFlash(samePage(request), {
        kind: "toast",
        icon: "success",
        title: "Subscriber removed",
        text: `${email} is off the list and gets no more newsletter mail.`,
      });
    });
  if (intent !== "import") return unknownAction(form);
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
  const { list, sends, q, state, content, audience } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const imported = result && "imported" in result ? result : null;
  return (
    <>
      <DashboardHeader
        title="Newsletter"
        description="What subscribers get, subscribers and their state (remove one from the list), CSV export and import of confirmed ones, and each post's send."
        actions={
          <a href="/api/newsletter/subscribers.csv" className={buttonClass({ tone: "secondary" })} download>
            Export confirmed (CSV)
          </a>
        }
      />

      <NewsletterDefaults content={content} audience={audience} failure={failure} />

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
        <DataTable
          caption={`Subscribers, newest first (${list.total} found)`}
          rows={list.subscribers}
          rowKey={(row) => row._id}
          empty="No subscribers match."
          columns={[
            {
              header: "Email",
              mobile: "title",
              cell: (row) => <span className="break-all text-ink">{row.email}</span>,
            },
            {
              header: "State",
              cell: (row) => (
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLE[row.state]}`}>
                  {row.state}
                </span>
              ),
            },
            {
              header: "Subscribed",
              // Only a confirmed address has subscribed; a pending or unsubscribed one says so.
              cell: (row) => <SubscribedAt subscriber={row} />,
            },
            {
              header: "Actions",
              action: true,
              cell: (row) => (
                <ConfirmForm
                  fields={{ intent: "remove", id: row._id }}
                  tone="danger"
                  ask="remove-subscriber"
                  pendingText="Removing…"
                >
                  Remove<span className="sr-only"> {row.email}</span>
                </ConfirmForm>
              ),
            },
          ]}
        />
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
        {failure && !failure.fields.content && !failure.fields.audience ? (
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
        <DataTable
          caption="Each post's newsletter send, newest first"
          rows={sends.sends}
          rowKey={(row) => row.blog_id}
          empty="No post has been sent yet. Every newly published post goes to confirmed subscribers."
          columns={[
            {
              header: "Post",
              mobile: "title",
              cell: (row) => (
                <Link to={`/blogs/${row.blog_id}`} className="font-medium text-brand-700 hover:underline">
                  {row.title}
                </Link>
              ),
            },
            { header: "Started", cell: (row) => <LocalTime iso={row.started_at} withTime /> },
            { header: "To", cell: (row) => AUDIENCE_LABEL[row.audience] ?? row.audience },
            { header: "Queued", cell: (row) => <span className="tabular-nums">{row.queued}</span> },
            { header: "Sent", cell: (row) => <span className="tabular-nums">{row.sent}</span> },
            { header: "Failed", cell: (row) => <span className="tabular-nums">{row.failed}</span> },
          ]}
        />
        <PageLinks page={sends.page} pages={sends.pages} param="sends" label="Send pages" />
      </section>
    </>
  );
}
