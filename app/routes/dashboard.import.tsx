import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { FormError } from "#app/components/form.tsx";
import { ImportPreview, ImportProgress, ImportReport } from "#app/components/ImportJob.tsx";
import { ImportUploadForm } from "#app/components/ImportUploadForm.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { refusal } from "#app/lib/form-result.ts";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { adminOrForbidden, signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MAX_IMPORT_BYTES } from "#worker/services/import/archive.ts";

export const handle = { title: "Import" };

/** A job's state as a sentence's words, not its code. */
const STATUS_WORDS: Record<string, string> = {
  preview: "Waiting for you to start it",
  running: "Importing",
  done: "Finished",
};

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Import", matches);

/**
 * Imports: an admin brings a whole site's export here; a writer's own-posts import (started from
 * /settings) shows its progress here too. `?job=` shows one import: preview, progress or report.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const url = new URL(request.url);
  const jobId = url.searchParams.get("job");
  const view = jobId
    ? await loadOr404(() =>
        context.services.imports.get(user, jobId, { page: url.searchParams.get("page") ?? undefined }),
      )
    : null;
  const recent = await context.services.imports.list(user);
  return { view, recent, isAdmin: user.role === "admin" };
}

/**
 * The upload names its scope in the URL (`?upload=site|own`, as the API's `?scope=`), so who may import
 * is checked before its body (up to 40 MB) is read: a site import is an admin's. Every other post here
 * is a text form, read under the text cap.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const upload = new URL(request.url).searchParams.get("upload");
  if (upload === "site" || upload === "own") {
    if (upload === "site") adminOrForbidden(context, request);
    const form = await readForm(request, "import");
    return handleForm(request, form, async () => {
      const { jobId } = await context.services.imports.start(user, form.get("file"), upload, form.get("source_url"));
      return redirect(`/dashboard/import?job=${jobId}`);
    });
  }
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "confirm") {
    const jobId = String(form.get("job") ?? "");
    return handleForm(request, form, async () => {
      const map: Record<string, string> = {};
      for (const [key, value] of form.entries())
        if (key.startsWith("map:") && typeof value === "string") map[key.slice(4)] = value;
      await context.services.imports.confirm(user, jobId, { default_category: form.get("default_category"), map });
      return redirect(`/dashboard/import?job=${jobId}`);
    });
  }
  if (intent === "retry-images") {
    const jobId = String(form.get("job") ?? "");
    return handleForm(request, form, async () => {
      await context.services.imports.retryImages(user, jobId);
      return redirect(`/dashboard/import?job=${jobId}`);
    });
  }
  return unknownAction(form);
}

export default function Import() {
  const { view, recent, isAdmin } = useLoaderData<typeof loader>();
  const failure = refusal(useActionData<typeof action>());
  return (
    <>
      <DashboardHeader
        title="Import"
        description="Bring posts from WordPress (.xml), Ghost (.json), Medium or Substack (.zip), or an Edge Blog export (.zip)."
        actions={
          isAdmin ? (
            <Link to="/dashboard/export" className="text-sm font-semibold text-brand-700 underline">
              Export the whole site
            </Link>
          ) : null
        }
      />
      {view ? (
        <div className="flex flex-col gap-8">
          {view.job.status === "preview" ? (
            <ImportPreview view={view} />
          ) : (
            <ImportProgress job={view.job} counts={view.counts} />
          )}
          {view.job.status === "done" ? <ImportReport view={view} /> : null}
          {failure ? <FormError message={failure.formError ?? Object.values(failure.fields)[0]} /> : null}
        </div>
      ) : (
        <section aria-labelledby="upload-heading" className="flex flex-col gap-3">
          <h2 id="upload-heading" className="text-lg font-semibold text-ink">
            {isAdmin ? "Import a site" : "Import your posts"}
          </h2>
          <p className="text-sm text-gray-600">
            {isAdmin
              ? "Authors are matched by email, or get an account with no password until they reset one. "
              : "Every post becomes yours. "}
            At most {MAX_IMPORT_BYTES / 1024 / 1024} MB. You see a preview before anything is written; importing the
            same file twice creates nothing twice, and imported posts never email subscribers.
          </p>
          {failure ? (
            <FormError message={failure.formError ?? failure.fields.file ?? Object.values(failure.fields)[0]} />
          ) : null}
          <ImportUploadForm intent={isAdmin ? "upload" : "upload-own"} />
        </section>
      )}
      {recent.length > 0 ? (
        <section aria-labelledby="recent-heading" className="mt-10 flex flex-col gap-2">
          <h2 id="recent-heading" className="text-lg font-semibold text-ink">
            Recent imports
          </h2>
          <ul className="divide-y divide-gray-100 rounded-2xl border border-gray-200 bg-white text-sm">
            {recent.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <Link to={`/dashboard/import?job=${r.id}`} className="font-medium text-brand-700 underline">
                  {r.filename}
                </Link>
                <span className="text-gray-600">
                  {/* A preview has read nothing yet (its pages are set aside already): no progress to give. */}
                  {STATUS_WORDS[r.status] ?? r.status}
                  {r.status === "preview" ? null : ` · ${r.done} of ${r.total} entries read`} ·{" "}
                  <LocalTime iso={new Date(r.createdAt).toISOString()} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
