import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { blogChangesInput, normalizeDateTime } from "../../worker/services/blogs";
import { DashboardHeader, buttonSecondary } from "~/components/DashboardHeader";
import { DateTimeField } from "~/components/DateTimeField";
import { Field, Select, SubmitButton, TextArea } from "~/components/form";
import { ImageField } from "~/components/ImageField";
import { CATEGORIES } from "~/lib/categories";
import { dashboardMeta, failureText, refusal } from "~/lib/dashboard";
import { withZone } from "~/lib/datetime";
import { alertDialog } from "~/lib/dialogs";
import { redirectWithFlash } from "~/lib/flash.server";
import { handleForm, loadOr404, readForm } from "~/lib/forms.server";
import { requireUser } from "~/lib/guards.server";
import { MSG } from "~/lib/messages";
import { useFailureAlert } from "~/lib/use-failure-alert";
import { checkBeforeUpload, uploadImage } from "~/lib/uploads.server";

export const handle = { title: "Update Blog" };

export const meta: MetaFunction = () => dashboardMeta("Update Blog");

/** One D1 query: the blog, if the person may edit it (its author or an admin); others get the 403 page. */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const user = requireUser(context, request);
  const blog = await loadOr404(() => context.services.blogs.editable(user, params.id ?? ""));
  return { blog };
}

/**
 * Order matters: who may edit and what is valid are settled before the new image is uploaded, so a
 * refused or forbidden edit never leaves an image behind. Empty fields keep their stored values.
 */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const user = requireUser(context, request);
  const id = params.id ?? "";
  const blog = await loadOr404(() => context.services.blogs.editable(user, id));
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const file = form.get("image");
    let dateTime = withZone(form.get("date_time"), form.get("tz"));
    // The input shows minutes only: the same minute as stored means the writer left it alone.
    if (dateTime && normalizeDateTime(dateTime)?.slice(0, 16) === blog.date_time.slice(0, 16)) dateTime = undefined;
    const input = {
      title: form.get("title"),
      category: form.get("category"),
      short_description: form.get("short_description"),
      blog_details: form.get("blog_details"),
      date_time: dateTime,
    };
    checkBeforeUpload(blogChangesInput, input, file);
    const image = await uploadImage(context, user, file, { required: false });
    const { modifiedCount } = await context.services.blogs.update(user, id, { ...input, image });
    if (modifiedCount === 0) return data({ ok: true as const, modifiedCount });
    return redirectWithFlash("/dashboard/manageBlogs", { kind: "toast", title: MSG.blog.updated, icon: "success" });
  });
}

export default function UpdateBlog() {
  const { blog } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const unchanged = result && !failure && "modifiedCount" in result && result.modifiedCount === 0 ? result : null;
  const values = failure?.values ?? {};
  const errors = failure?.fields ?? {};

  useFailureAlert(result, MSG.blog.errorTitle);
  useEffect(() => {
    if (unchanged) void alertDialog(MSG.blog.noChanges, undefined, "info");
  }, [unchanged]);

  return (
    <>
      <DashboardHeader
        title="Update Blog"
        description="Change what you need. A field left empty keeps its current value, and the image changes only if you choose a new one."
        actions={
          <>
            <Link to={`/blogs/${blog._id}`} className={buttonSecondary}>
              View post
            </Link>
            <Link to="/dashboard/manageBlogs" className={buttonSecondary}>
              Manage Blogs
            </Link>
          </>
        }
      />
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5">
        {failure ? (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            <strong className="font-semibold">{MSG.blog.errorTitle}</strong> {failureText(failure, "The blog could not be updated.")}
          </div>
        ) : null}
        {unchanged ? (
          <div role="status" className="rounded-lg border border-gray-200 bg-gray-50 px-4 py-3 text-sm font-semibold text-gray-800">
            {MSG.blog.noChanges}
          </div>
        ) : null}

        <Field label="Title" name="title" maxLength={150} defaultValue={values.title ?? blog.title} error={errors.title} />

        <div className="grid gap-5 sm:grid-cols-2">
          <Select label="Category" name="category" defaultValue={values.category ?? blog.category} error={errors.category}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
          <DateTimeField
            label="Date and time"
            instant={blog.date_time}
            error={errors.date_time}
            submitted={failure ? { value: values.date_time ?? "", tz: values.tz ?? "" } : null}
          />
        </div>

        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Writer name" value={blog.author_name} readOnly hint="The post's author" />
          <Field label="Writer email" type="email" value={blog.email} readOnly hint="The post's author" />
        </div>

        <ImageField label="Cover image" current={blog.image} error={errors.image} hint="Optional: choose a new file to replace the current image." />

        <TextArea
          label="Short description"
          name="short_description"
          maxLength={300}
          rows={3}
          defaultValue={values.short_description ?? blog.short_description}
          error={errors.short_description}
        />
        <TextArea label="Details" name="blog_details" rows={12} defaultValue={values.blog_details ?? blog.blog_details} error={errors.blog_details} />

        <div className="flex justify-end border-t border-gray-100 pt-5">
          <SubmitButton pendingText="Updating…">Update Blog</SubmitButton>
        </div>
      </Form>
    </>
  );
}
