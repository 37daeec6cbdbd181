import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import { MarkdownEditor } from "#app/components/MarkdownEditor.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { failureText, refusal } from "#app/lib/form-result.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { useFailureAlert } from "#app/lib/use-failure-alert.ts";
import { MARKDOWN_MAX_CHARS } from "#worker/content/markdown.ts";

export const handle = { title: "Edit Page" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Edit Page", matches);

/** An admin edits /privacy or /terms: the page's Markdown, the default text until saved. */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  adminOrForbidden(context, request);
  return { page: await loadOr404(() => context.services.sitePages.get(params.slug ?? "")) };
}

export async function action({ context, request, params }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const slug = params.slug ?? "";
    await context.services.sitePages.update(admin, slug, { body: form.get("body") });
    return redirectWithFlash(`/${slug}`, { kind: "toast", title: "Page saved." });
  });
}

export default function EditSitePage() {
  const { page } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  useFailureAlert(result, "Error!");
  return (
    <>
      <DashboardHeader
        title={`Edit ${page.title}`}
        description="Markdown, shown on the page as it is saved. Headings, lists and links work as in posts."
      />
      <Form method="post" className="flex max-w-3xl flex-col gap-5" aria-label={`Edit ${page.title}`}>
        {failure ? <FormError message={failureText(failure, "The page could not be saved.")} /> : null}
        {/* The posts' editor: its toolbar and a live preview of the page as it will read. */}
        <MarkdownEditor
          label="Text"
          name="body"
          required
          rows={20}
          maxLength={MARKDOWN_MAX_CHARS}
          defaultValue={failure?.values.body ?? page.body}
          error={failure?.fields.body}
        />
        <div className="flex justify-end gap-3 border-t border-gray-100 pt-5">
          <Link to={`/${page.slug}`} className={buttonSecondary}>
            Cancel
          </Link>
          <SubmitButton pendingText="Saving…">Save Page</SubmitButton>
        </div>
      </Form>
    </>
  );
}
