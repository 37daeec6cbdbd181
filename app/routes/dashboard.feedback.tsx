import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { DesignationField, FormError, NameField, SubmitButton, TextArea } from "#app/components/form.tsx";
import { ImageField } from "#app/components/ImageField.tsx";
import { StarRatingInput } from "#app/components/StarRatingInput.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { refusal } from "#app/lib/form-result.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { useFailureAlert } from "#app/lib/use-failure-alert.ts";

export const handle = { title: "Send Feedback" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Send Feedback", matches);

/** No D1 query: the name comes from the session. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  return { name: user.name };
}

/**
 * Parse, create, answer: reviews.create checks the fields before it stores the photo (no orphans),
 * with the spec's 600-second expiry that it clears in the same batch as the insert, so the testimonial
 * keeps its photo (docs/decisions/003-feedback-image-expiry.md).
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request, "image");
  return handleForm(request, form, async () => {
    const input = {
      name: form.get("name"),
      designation: form.get("designation"),
      rating: form.get("rating"),
      review: form.get("review"),
    };
    await context.services.reviews.create(user, input, form.get("image"));
    // It waits for an admin's approval: a dialog that stays until read says so.
    return redirectWithFlash("/dashboard", {
      kind: "alert",
      title: MSG.feedback.submitted,
      text: MSG.feedback.pendingText,
      icon: "success",
    });
  });
}

export default function SendFeedback() {
  const { name } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const values = failure?.values ?? {};
  const errors = failure?.fields ?? {};
  // The spec only logs feedback errors; with JavaScript we show them in a dialog too.
  useFailureAlert(result, "Error!");

  return (
    <>
      <DashboardHeader
        title="Send Feedback"
        description="Tell other readers what you think of the platform. Once an admin approves it, your feedback may appear in What Our Users Say on the home page."
      />
      <Form method="post" encType="multipart/form-data" className="flex max-w-2xl flex-col gap-5">
        {failure ? <FormError message={failure.formError ?? "Your feedback could not be sent."} /> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <NameField defaultValue={values.name ?? name} error={errors.name} autoComplete="name" />
          <DesignationField
            defaultValue={values.designation}
            error={errors.designation}
            placeholder="e.g. Product Designer"
          />
        </div>
        <StarRatingInput name="rating" defaultValue={Number(values.rating ?? 0)} size={24} error={errors.rating} />
        <TextArea
          label="Message"
          name="review"
          required
          maxLength={LIMITS.review}
          rows={5}
          defaultValue={values.review}
          error={errors.review}
        />
        <ImageField
          label="Your photo"
          required
          error={errors.image}
          hint="JPEG, PNG, WebP, GIF or AVIF, up to 5 MB. Shown beside your feedback."
        />
        <div className="flex justify-end border-t border-gray-100 pt-5">
          <SubmitButton pendingText="Sending…">Submit Feedback</SubmitButton>
        </div>
      </Form>
    </>
  );
}
