import { Form, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "#app/root.tsx";
import { useRef } from "react";
import { LIMITS } from "#worker/services/shared/limits.ts";

import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import type { Blog } from "#worker/services/blogs/model.ts";
import { DateTimeField } from "#app/components/DateTimeField.tsx";
import { Field, FormError, Select, SubmitButton, TextArea } from "#app/components/form.tsx";
import { ImageField } from "#app/components/ImageField.tsx";
import { PublishChoices } from "#app/components/PublishChoices.tsx";
import { StatusBadge } from "#app/components/StatusBadge.tsx";
import { MarkdownEditor } from "#app/components/MarkdownEditor.tsx";
import { PostExtraFields } from "#app/components/PostExtraFields.tsx";
import { CATEGORIES } from "#worker/services/categories.ts";
import { failureText, refusal, scheduleOnly } from "#app/lib/form-result.ts";
import { SCHEDULE_IN_PAST } from "#worker/services/blogs/input.ts";
import { alertDialog } from "#app/lib/dialogs.ts";
import { MSG } from "#app/lib/messages.ts";
import { useFailureAlert } from "#app/lib/use-failure-alert.ts";
import { POST_AUTOSAVE_FIELDS, useFormAutosave } from "#app/lib/form-autosave.ts";
import { useLeaveGuard } from "#app/lib/use-leave-guard.ts";
import { DraftNotice, SavedStatus } from "#app/components/AutosaveNotice.tsx";

/**
 * The blog edit form (a writer's own post, or any post for an admin): preloaded, every field
 * optional (an empty one keeps its value), an optional new image. The author stays the post's own.
 * `result` is the action's answer: a refusal ("Error!" with the message) or `{modifiedCount: 0}`
 * ("No Changes Made!"), each shown inline and, with JavaScript, as the spec's dialog.
 */
export function BlogEditForm({ blog, result }: { blog: Blog; result: unknown }) {
  const failure = refusal(result);
  const unchanged =
    !failure &&
    typeof result === "object" &&
    result !== null &&
    (result as { modifiedCount?: unknown }).modifiedCount === 0;
  // A past schedule date alone is said once, by the summary; other refusals also get the spec's dialog.
  const onlySchedule = scheduleOnly(failure, SCHEDULE_IN_PAST);
  useFailureAlert(onlySchedule ? undefined : result, MSG.blog.errorTitle, (f) =>
    failureText(f, "The blog could not be updated."),
  );
  useOnActionResult(result, () => {
    if (unchanged) void alertDialog(MSG.blog.noChanges, undefined, "info");
  });
  const values = failure?.values ?? {};
  const errors = failure?.fields ?? {};
  const form = useRef<HTMLFormElement>(null);
  const editor = useRouteLoaderData<typeof rootLoader>("root")?.user?._id ?? "";
  // One local draft per post (and per person on a shared device), offered back rather than applied:
  // the form already holds the stored post, which may be newer than the draft (compared by updated_at).
  const autosave = useFormAutosave(form, {
    key: `draft:updateBlog:${editor}:${blog._id}`,
    fields: POST_AUTOSAVE_FIELDS,
    mode: "offer",
    refused: failure,
    version: blog.updated_at,
  });
  useLeaveGuard(autosave.isDirty);
  return (
    <Form
      ref={form}
      method="post"
      encType="multipart/form-data"
      className="flex flex-col gap-5"
      aria-label="Update blog"
    >
      {failure ? (
        <FormError title={MSG.blog.errorTitle} message={failureText(failure, "The blog could not be updated.")} />
      ) : null}
      {unchanged ? (
        <div
          role="status"
          className="rounded-lg border border-gray-200 bg-gray-50 px-4 py-3 text-sm font-semibold text-gray-800"
        >
          {MSG.blog.noChanges}
        </div>
      ) : null}
      <DraftNotice autosave={autosave} />

      <Field
        label="Title"
        name="title"
        maxLength={LIMITS.title}
        defaultValue={values.title ?? blog.title}
        error={errors.title}
      />

      <div className="grid gap-5 sm:grid-cols-2">
        <Select
          label="Category"
          name="category"
          defaultValue={values.category ?? blog.category}
          error={errors.category}
        >
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </Select>
        <DateTimeField
          label="Date and time"
          instant={blog.date_time}
          error={onlySchedule ? undefined : errors.date_time}
          submitted={failure ? { value: values.date_time ?? "", tz: values.tz ?? "" } : null}
        />
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Writer name" value={blog.author_name} readOnly hint="The post's author" />
        <Field label="Writer email" type="email" value={blog.email} readOnly hint="The post's author" />
      </div>

      <ImageField
        label="Cover image"
        current={blog.image}
        error={errors.image}
        hint="Optional: choose a new file to replace the current image."
      />

      <TextArea
        label="Short description"
        name="short_description"
        maxLength={LIMITS.shortDescription}
        rows={3}
        defaultValue={values.short_description ?? blog.short_description}
        error={errors.short_description}
      />
      <MarkdownEditor
        label="Details"
        name="blog_details"
        rows={12}
        defaultValue={values.blog_details ?? blog.blog_details}
        error={errors.blog_details}
      />
      <PostExtraFields values={values} errors={errors} current={blog} />

      <PublishChoices
        current={blog.status}
        noEmail={blog.status === "published" ? undefined : !blog.email_subscribers}
        primary={<SubmitButton pendingText="Updating…">Update Blog</SubmitButton>}
        note={
          <div className="flex flex-col gap-1">
            <StatusBadge status={blog.status} publishAt={blog.publish_at} />
            <SavedStatus savedAt={autosave.savedAt} />
          </div>
        }
      />
    </Form>
  );
}
