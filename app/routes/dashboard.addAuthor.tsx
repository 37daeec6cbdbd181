import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import { newAuthorInput } from "../../worker/services/authors";
import { DashboardHeader, buttonSecondary } from "~/components/DashboardHeader";
import { Field, FormError, SubmitButton, TextArea } from "~/components/form";
import { ImageField } from "~/components/ImageField";
import { dashboardMeta, failureText, refusal } from "~/lib/dashboard";
import { redirectWithFlash } from "~/lib/flash.server";
import { handleForm, readForm } from "~/lib/forms.server";
import { requireAdmin } from "~/lib/guards.server";
import { MSG } from "~/lib/messages";
import { checkBeforeUpload, uploadImage } from "~/lib/uploads.server";
import { useFailureAlert } from "~/lib/use-failure-alert";

export const handle = { title: "Add Author" };

export const meta: MetaFunction = () => dashboardMeta("Add Author");

/** No D1 query: the guard reads the session the Worker already resolved. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  requireAdmin(context, request);
  return null;
}

/** Validated with the author service's own schema before the picture is uploaded, so a refused form leaves no image behind. */
export async function action({ context, request }: ActionFunctionArgs) {
  const admin = requireAdmin(context, request);
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const file = form.get("image");
    const input = {
      name: form.get("name"),
      bio: form.get("bio"),
      twitter: form.get("twitter"),
      linkedin: form.get("linkedin"),
      github: form.get("github"),
    };
    checkBeforeUpload(newAuthorInput, input, file);
    const image = await uploadImage(context, admin, file, { required: true });
    await context.services.authors.create(admin, { ...input, image });
    return redirectWithFlash("/dashboard/manageAuthors", { kind: "alert", icon: "success", title: MSG.author.addedTitle, text: MSG.author.addedText });
  });
}

export default function AddAuthor() {
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const values = failure?.values ?? {};
  const errors = failure?.fields ?? {};
  useFailureAlert(result, MSG.admin.actionFailedTitle);

  return (
    <>
      <DashboardHeader
        title="Add Author"
        description="Authors appear in Meet Our Authors on the home page. Name, bio and picture are required; the profile links are optional."
        actions={
          <Link to="/dashboard/manageAuthors" className={buttonSecondary}>
            Manage Authors
          </Link>
        }
      />
      <Form method="post" encType="multipart/form-data" className="flex max-w-3xl flex-col gap-5" aria-label="Add author">
        {failure ? <FormError message={failureText(failure, "The author could not be added.")} /> : null}
        <Field label="Name" name="name" required maxLength={80} defaultValue={values.name} error={errors.name} autoComplete="off" />
        <TextArea label="Bio" name="bio" required maxLength={1000} rows={4} defaultValue={values.bio} error={errors.bio} />
        <ImageField label="Picture" required error={errors.image} hint="JPEG, PNG, WebP, GIF or AVIF, up to 5 MB. A square photo looks best." />
        <fieldset className="flex flex-col gap-4 rounded-2xl border border-gray-200 p-4 sm:p-5">
          <legend className="px-1 text-sm font-semibold text-gray-800">Profile links (optional)</legend>
          <div className="grid gap-4 md:grid-cols-3">
            <Field label="Twitter" name="twitter" type="url" inputMode="url" placeholder="https://twitter.com/…" defaultValue={values.twitter} error={errors.twitter} />
            <Field label="LinkedIn" name="linkedin" type="url" inputMode="url" placeholder="https://linkedin.com/in/…" defaultValue={values.linkedin} error={errors.linkedin} />
            <Field label="GitHub" name="github" type="url" inputMode="url" placeholder="https://github.com/…" defaultValue={values.github} error={errors.github} />
          </div>
        </fieldset>
        <div className="flex justify-end border-t border-gray-100 pt-5">
          <SubmitButton pendingText="Adding…">Add Author</SubmitButton>
        </div>
      </Form>
    </>
  );
}
