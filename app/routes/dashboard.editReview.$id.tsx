import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { DesignationField, FormError, NameField, SubmitButton, TextArea } from "#app/components/form.tsx";
import { StarRating } from "#app/components/StarRating.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { failureText, refusal } from "#app/lib/form-result.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { useFailureAlert } from "#app/lib/use-failure-alert.ts";

export const handle = { title: "Edit Review" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Edit Review", matches);

export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  return { review: await loadOr404(() => context.services.reviews.byId(admin, params.id ?? "")) };
}

export async function action({ context, request, params }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const { modifiedCount } = await context.services.reviews.update(admin, params.id ?? "", {
      name: form.get("name"),
      designation: form.get("designation"),
      review: form.get("review"),
    });
    if (modifiedCount === 0)
      return redirectWithFlash(`/dashboard/editReview/${params.id}`, {
        kind: "alert",
        icon: "info",
        title: MSG.blog.noChanges,
      });
    return redirectWithFlash("/dashboard/manageReview", { kind: "toast", title: MSG.feedback.updated });
  });
}

export default function EditReview() {
  const { review } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  useFailureAlert(result, MSG.feedback.updateFailed);
  const value = (field: "name" | "designation" | "review") => failure?.values[field] ?? review[field];

  return (
    <>
      <DashboardHeader
        title="Edit Review"
        description="Name, designation and message are required. The rating and photo stay as the reader sent them."
      />
      <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_18rem]">
        <Form method="post" className="flex flex-col gap-5" aria-label="Edit review">
          {failure ? <FormError message={`${MSG.feedback.updateFailed}: ${failureText(failure, "")}`} /> : null}
          <div className="grid gap-5 sm:grid-cols-2">
            <NameField defaultValue={value("name")} error={failure?.fields.name} />
            <DesignationField defaultValue={value("designation")} error={failure?.fields.designation} />
          </div>
          <TextArea
            label="Message"
            name="review"
            required
            rows={6}
            maxLength={LIMITS.review}
            defaultValue={value("review")}
            error={failure?.fields.review}
          />
          <div className="flex flex-wrap items-center justify-end gap-3 border-t border-gray-100 pt-5">
            <Link to="/dashboard/manageReview" className={buttonSecondary}>
              Cancel
            </Link>
            <SubmitButton pendingText="Updating…">Update Feedback</SubmitButton>
          </div>
        </Form>
        <aside
          aria-label="How it looks on the home page"
          className="h-fit rounded-2xl border border-gray-200 bg-gray-50 p-5"
        >
          <p className="text-xs font-semibold tracking-wide text-gray-500 uppercase">On the home page</p>
          <div className="mt-4 flex items-center gap-3">
            <img src={review.image} alt="" width={48} height={48} className="h-12 w-12 rounded-full object-cover" />
            <div>
              <p className="font-semibold text-ink">{review.name}</p>
              <p className="text-sm text-gray-600">{review.designation}</p>
            </div>
          </div>
          <StarRating value={review.rating} size={20} className="mt-3" />
          <p className="mt-3 line-clamp-6 text-sm text-gray-700">{review.review}</p>
        </aside>
      </div>
    </>
  );
}
