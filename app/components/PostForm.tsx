import { MEMBERS_ONLY_MARKER } from "#worker/services/blogs/gate.ts";
import { Form, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { loader as rootLoader } from "#app/root.tsx";
import { DateTimeField } from "#app/components/DateTimeField.tsx";
import { Field, FormError, Select, SubmitButton, TextArea } from "#app/components/form.tsx";
import { ImageField } from "#app/components/ImageField.tsx";
import { MarkdownEditor } from "#app/components/MarkdownEditor.tsx";
import { PostExtraFields } from "#app/components/PostExtraFields.tsx";
import { PublishChoices } from "#app/components/PublishChoices.tsx";
import { StatusBadge } from "#app/components/StatusBadge.tsx";
import { DraftNotice, SavedStatus } from "#app/components/AutosaveNotice.tsx";
import type { AccountAutosave } from "#app/lib/account-autosave.ts";
import { alertDialog } from "#app/lib/dialogs.ts";
import { POST_AUTOSAVE_FIELDS, useFormAutosave } from "#app/lib/form-autosave.ts";
import { failureText, refusal, scheduleOnly } from "#app/lib/form-result.ts";
import { MSG } from "#app/lib/messages.ts";
import { useFailureAlert } from "#app/lib/use-failure-alert.ts";
import { useLeaveGuard } from "#app/lib/use-leave-guard.ts";
import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import { SCHEDULE_IN_PAST } from "#worker/services/blogs/input.ts";
import type { Blog } from "#worker/services/blogs/model.ts";
import { CATEGORIES } from "#worker/services/categories.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";

/** Write Blogs: a new post by the signed-in writer, whose account copy of the words the page loaded. */
type NewPost = { writer: { id: string; name: string; email: string }; autosave: AccountAutosave | null };

/**
 * The one post form: Write Blogs (`mode="new"`: every field required to publish or schedule, the
 * writer from the session, the spec's browser alert on a refusal) and both edit forms (`mode="edit"`:
 * preloaded, every field optional, an empty one keeps its value, an optional new image, the spec's
 * "Error!" and "No Changes Made!" dialogs). `result` is the action's answer. Works without JavaScript;
 * with it, the words are autosaved (app/lib/form-autosave.ts) and the chosen cover kept (kept-cover.ts).
 */
export function PostForm(props: (({ mode: "new" } & NewPost) | { mode: "edit"; blog: Blog }) & { result: unknown }) {
  const { result } = props;
  const blog = props.mode === "edit" ? props.blog : null;
  const isNew = blog === null;
  const failure = refusal(result);
  const values = failure?.values ?? {};
  const errors = failure?.fields ?? {};
  const unchanged =
    !failure &&
    typeof result === "object" &&
    result !== null &&
    (result as { modifiedCount?: unknown }).modifiedCount === 0;
  // A past schedule date alone is said once, by the summary; other refusals also get the spec's alert.
  const onlySchedule = scheduleOnly(failure, SCHEDULE_IN_PAST);
  const fallback = isNew ? "The blog could not be posted." : "The blog could not be updated.";
  useFailureAlert(isNew || onlySchedule ? undefined : result, MSG.blog.errorTitle, (f) => failureText(f, fallback));
  useOnActionResult(result, () => {
    if (unchanged) void alertDialog(MSG.blog.noChanges, undefined, "info");
  });
  useEffect(() => {
    // The spec: a refused new post is a browser alert with the message (the fields show it too).
    if (isNew && failure && !onlySchedule) window.alert(failureText(failure, fallback));
  }, [isNew, failure, onlySchedule, fallback]);

  const form = useRef<HTMLFormElement>(null);
  const viewer = useRouteLoaderData<typeof rootLoader>("root")?.user;
  const editor = viewer?._id ?? "";
  // A new post's local draft fills the empty form at once; an edit's is offered, never applied silently:
  // the form already holds the stored post, which may be newer than the draft (compared by updated_at).
  // One draft per post and per person on a shared device. A new post is also kept for the account.
  const autosave = useFormAutosave(
    form,
    props.mode === "new"
      ? {
          key: `draft:writeBlogs:${props.writer.id}`,
          fields: POST_AUTOSAVE_FIELDS,
          mode: "fill",
          refused: failure,
          account: props.autosave,
        }
      : {
          key: `draft:updateBlog:${editor}:${props.blog._id}`,
          fields: POST_AUTOSAVE_FIELDS,
          mode: "offer",
          refused: failure,
          version: props.blog.updated_at,
        },
  );
  useLeaveGuard(autosave.isDirty);
  const writer = props.mode === "new" ? props.writer : { name: props.blog.author_name, email: props.blog.email };

  return (
    <Form
      ref={form}
      method="post"
      encType="multipart/form-data"
      className="flex flex-col gap-5"
      aria-label={isNew ? undefined : "Update blog"}
      aria-describedby={isNew && failure ? "form-error" : undefined}
    >
      {failure && isNew ? (
        <div id="form-error">
          <FormError message={failure.formError ?? fallback} />
        </div>
      ) : null}
      {failure && !isNew ? <FormError title={MSG.blog.errorTitle} message={failureText(failure, fallback)} /> : null}
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
        required={isNew}
        maxLength={LIMITS.title}
        defaultValue={values.title ?? blog?.title}
        error={errors.title}
        placeholder={isNew ? "A clear, specific title" : undefined}
      />

      <div className="grid gap-5 sm:grid-cols-2">
        <Select
          label="Category"
          name="category"
          required={isNew}
          defaultValue={values.category ?? blog?.category ?? ""}
          error={errors.category}
        >
          {isNew ? (
            <option value="" disabled>
              Choose a category
            </option>
          ) : null}
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </Select>
        <DateTimeField
          label="Date and time"
          required={isNew}
          instant={blog?.date_time}
          error={onlySchedule ? undefined : errors.date_time}
          submitted={failure ? { value: values.date_time ?? "", tz: values.tz ?? "" } : null}
        />
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Writer name"
          name={isNew ? "author_name" : undefined}
          value={writer.name}
          readOnly
          required={isNew}
          hint={isNew ? "From your account" : "The post's author"}
        />
        <Field
          label="Writer email"
          name={isNew ? "email" : undefined}
          type="email"
          value={writer.email}
          readOnly
          required={isNew}
          hint={isNew ? "From your account" : "The post's author"}
        />
      </div>

      <ImageField
        label="Cover image"
        required={isNew}
        current={blog?.image}
        error={errors.image}
        keep="image_url"
        hint={
          isNew
            ? "JPEG, PNG, WebP, GIF or AVIF, up to 5 MB."
            : "Optional: choose a new file to replace the current image."
        }
      />

      <TextArea
        label="Short description"
        name="short_description"
        required={isNew}
        maxLength={LIMITS.shortDescription}
        rows={3}
        defaultValue={values.short_description ?? blog?.short_description}
        error={errors.short_description}
        placeholder={isNew ? "One or two sentences that make people want to read on" : undefined}
      />
      <MarkdownEditor
        label="Details"
        name="blog_details"
        required={isNew}
        rows={12}
        defaultValue={values.blog_details ?? blog?.blog_details}
        error={errors.blog_details}
      />
      <PostExtraFields values={values} errors={errors} current={blog ?? undefined} />
      <Select
        label="In the newsletter"
        name="newsletter_content"
        defaultValue={values.newsletter_content ?? blog?.newsletter_content ?? ""}
        error={errors.newsletter_content}
        hint="What subscribers get in the mail about this post, when it is emailed."
      >
        <option value="">The site&apos;s default</option>
        <option value="teaser">The teaser and a link</option>
        <option value="full">The whole post</option>
      </Select>
      {viewer?.role === "admin" ? (
        <Select
          label="Send the newsletter to"
          name="newsletter_audience"
          defaultValue={values.newsletter_audience ?? blog?.newsletter_audience ?? ""}
          error={errors.newsletter_audience}
          hint="Who gets this post by email when it is published (an admin's choice; writers' posts follow the site's default)."
        >
          <option value="">The site&apos;s default</option>
          <option value="everyone">Every subscriber</option>
          <option value="free">Free subscribers only</option>
          <option value="paid">Paying members only</option>
        </Select>
      ) : null}
      <Select
        label="Who can read it"
        name="visibility"
        defaultValue={values.visibility ?? blog?.visibility ?? "public"}
        error={errors.visibility}
        hint={`Others read the part above a line ${MEMBERS_ONLY_MARKER} in the text (else the short description), then an invitation to join.`}
      >
        <option value="public">Everyone</option>
        <option value="members">Signed-in members</option>
        <option value="paid">Paying members</option>
      </Select>

      {blog ? (
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
      ) : (
        <PublishChoices
          primary={<SubmitButton pendingText="Posting…">Post Blog</SubmitButton>}
          noEmail={values.no_email === "on"}
          note={<SavedStatus savedAt={autosave.savedAt} />}
        />
      )}
    </Form>
  );
}
