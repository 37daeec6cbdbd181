import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { authorChangesInput } from "../../worker/services/authors";
import { DashboardHeader, buttonSecondary } from "~/components/DashboardHeader";
import { Field, FormError, SubmitButton, TextArea } from "~/components/form";
import { ImageField } from "~/components/ImageField";
import { dashboardMeta, failureText, refusal, type RefusedForm } from "~/lib/dashboard";
import { alertDialog } from "~/lib/dialogs";
import { redirectWithFlash } from "~/lib/flash.server";
import { handleForm, loadOr404, readForm } from "~/lib/forms.server";
import { requireAdmin } from "~/lib/guards.server";
import { MSG } from "~/lib/messages";
import { checkBeforeUpload, uploadImage } from "~/lib/uploads.server";

export const handle = { title: "Update Author" };

export const meta: MetaFunction = () => dashboardMeta("Update Author");

/** One D1 query: the author to preload. */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const admin = requireAdmin(context, request);
  return { author: await loadOr404(() => context.services.authors.byId(admin, params.id ?? "")) };
}

/**
 * Nothing is required and an empty field keeps the stored value (spec section 5); the picture changes
 * only when a new file is chosen, and is uploaded only once the rest has been checked.
 */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const admin = requireAdmin(context, request);
  const id = params.id ?? "";
  // A missing author is the 404 page before anything is uploaded.
  await loadOr404(() => context.services.authors.byId(admin, id));
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const file = form.get("img");
    const input = {
      name: form.get("name"),
      bio: form.get("bio"),
      twitter: form.get("twitter"),
      linkedin: form.get("linkedin"),
      github: form.get("github"),
    };
    checkBeforeUpload(authorChangesInput, input, file, "img");
    const img = await uploadImage(context, admin, file, { required: false, field: "img" });
    const { modifiedCount } = await context.services.authors.update(admin, id, { ...input, img });
    if (modifiedCount === 0) return data({ ok: true as const, modifiedCount });
    return redirectWithFlash("/dashboard/manageAuthors", { kind: "toast", icon: "success", title: MSG.author.updated });
  });
}

/** The spec's two failure dialogs: one for the picture, one for everything else. */
function failureDialog(failure: RefusedForm): [string, string] {
  if (failure.code === "image-upload-failed") return [MSG.author.imageErrorTitle, MSG.author.imageErrorText];
  return [MSG.author.updateFailed, failureText(failure, "The author could not be updated.")];
}

export default function UpdateAuthor() {
  const { author } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const unchanged = result && !failure && "modifiedCount" in result && result.modifiedCount === 0 ? result : null;
  const values = failure?.values ?? {};
  const errors = failure?.fields ?? {};

  useEffect(() => {
    if (failure) {
      const [title, text] = failureDialog(failure);
      void alertDialog(title, text, "error");
    }
  }, [failure]);
  useEffect(() => {
    if (unchanged) void alertDialog(MSG.author.noChanges, undefined, "info");
  }, [unchanged]);

  const value = (field: "name" | "bio" | "twitter" | "linkedin" | "github") => values[field] ?? author[field] ?? "";

  return (
    <>
      <DashboardHeader
        title="Update Author"
        description="Change what you need. A field left empty keeps its current value, and the picture changes only if you choose a new one."
        actions={
          <Link to="/dashboard/manageAuthors" className={buttonSecondary}>
            Manage Authors
          </Link>
        }
      />
      <Form method="post" encType="multipart/form-data" className="flex max-w-3xl flex-col gap-5" aria-label="Update author">
        {failure ? <FormError message={failureDialog(failure).join(": ")} /> : null}
        {unchanged ? (
          <div role="status" className="rounded-lg border border-gray-200 bg-gray-50 px-4 py-3 text-sm font-semibold text-gray-800">
            {MSG.author.noChanges}
          </div>
        ) : null}
        <Field label="Name" name="name" maxLength={80} defaultValue={value("name")} error={errors.name} autoComplete="off" />
        <TextArea label="Bio" name="bio" maxLength={1000} rows={4} defaultValue={value("bio")} error={errors.bio} />
        <ImageField name="img" label="Picture" current={author.img} error={errors.img} hint="Optional: choose a new file to replace the current picture." />
        <fieldset className="flex flex-col gap-4 rounded-2xl border border-gray-200 p-4 sm:p-5">
          <legend className="px-1 text-sm font-semibold text-gray-800">Profile links (optional)</legend>
          <div className="grid gap-4 md:grid-cols-3">
            <Field label="Twitter" name="twitter" type="url" inputMode="url" defaultValue={value("twitter")} error={errors.twitter} />
            <Field label="LinkedIn" name="linkedin" type="url" inputMode="url" defaultValue={value("linkedin")} error={errors.linkedin} />
            <Field label="GitHub" name="github" type="url" inputMode="url" defaultValue={value("github")} error={errors.github} />
          </div>
        </fieldset>
        <div className="flex justify-end border-t border-gray-100 pt-5">
          <SubmitButton pendingText="Updating…">Update Author</SubmitButton>
        </div>
      </Form>
    </>
  );
}
