import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm.tsx";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { EmptyState } from "#app/components/ui.tsx";
import { samePage } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { postPath } from "#worker/services/blogs/slug.ts";

export const handle = { title: "Reported Comments" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Reported Comments", matches);

/** One D1 round trip: a page of reported comments (most recently reported first) and their number. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const page = new URL(request.url).searchParams.get("page");
  return { reported: await loadOr404(() => context.services.commentReports.reported(admin, { page })) };
}

/** Keep (its reports are cleared) or delete (the comment and its replies), then the same page again. */
export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request);
  const id = String(form.get("id") ?? "");
  return handleForm(request, form, async () => {
    switch (form.get("intent")) {
      case "keep":
        await context.services.commentReports.keep(admin, id);
        return redirectWithFlash(samePage(request), { kind: "toast", title: "Comment kept", icon: "success" });
      case "delete":
        await context.services.comments.remove(admin, id);
        return redirectWithFlash(samePage(request), {
          kind: "alert",
          icon: "success",
          title: MSG.delete.doneTitle,
          text: MSG.delete.doneText,
        });
      default:
        return unknownAction(form);
    }
  });
}

export default function ReportedComments() {
  const { reported } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <>
      <DashboardHeader
        title="Reported Comments"
        description="Comments readers reported. Keep one to clear its reports, or delete it (with its replies)."
      />
      {reported.items.length === 0 ? (
        <EmptyState as="p">No reported comments. All quiet.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-4" aria-label="Reported comments">
          {reported.items.map((c) => {
            const keeping = navigation.formData?.get("intent") === "keep" && navigation.formData?.get("id") === c._id;
            return (
              <li key={c._id}>
                <article
                  aria-labelledby={`rc-${c._id}`}
                  className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5"
                >
                  <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                    <h2 id={`rc-${c._id}`} className="text-sm font-semibold text-ink">
                      {c.author.name}
                      <span className="font-normal text-gray-600">
                        {" "}
                        {c.parent_id ? "replied on" : "commented on"}{" "}
                        <Link
                          to={`${postPath({ id: c.blog._id, title: c.blog.title })}#comment-${c._id}`}
                          className="font-medium text-brand-700 hover:underline"
                        >
                          {c.blog.title}
                        </Link>
                      </span>
                    </h2>
                    <span className="rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-semibold text-red-700">
                      {c.reports === 1 ? "1 report" : `${c.reports} reports`}
                    </span>
                  </header>
                  <p className="mt-1 text-xs text-gray-600">
                    Written <LocalTime iso={c.created_at} withTime /> · last reported{" "}
                    <LocalTime iso={c.last_reported_at} withTime />
                  </p>
                  <p className="mt-3 rounded-xl bg-gray-50 px-4 py-3 text-[15px] break-words whitespace-pre-line text-gray-800">
                    {c.body}
                  </p>
                  <div className="mt-3 flex flex-wrap gap-2">
                    <Form method="post" className="inline">
                      <input type="hidden" name="intent" value="keep" />
                      <input type="hidden" name="id" value={c._id} />
                      <button
                        type="submit"
                        disabled={keeping}
                        aria-label={`Keep comment by ${c.author.name}`}
                        className={rowActionClass()}
                      >
                        {keeping ? "Keeping…" : "Keep"}
                      </button>
                    </Form>
                    <ConfirmForm
                      fields={{ intent: "delete", id: c._id }}
                      ask="delete"
                      tone="danger"
                      pendingText="Deleting…"
                      label={`Delete comment by ${c.author.name}`}
                    >
                      Delete
                    </ConfirmForm>
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}
      {reported.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={reported.page} pages={reported.pages} label="Reported comment pages" />
        </div>
      ) : null}
    </>
  );
}
