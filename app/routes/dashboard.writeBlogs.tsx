import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { DateTimeField } from "#app/components/DateTimeField.tsx";
import { Field, FormError, Select, SubmitButton, TextArea } from "#app/components/form.tsx";
import { ImageField } from "#app/components/ImageField.tsx";
import { PublishChoices } from "#app/components/PublishChoices.tsx";
import { MarkdownEditor } from "#app/components/MarkdownEditor.tsx";
import { CATEGORIES } from "#worker/services/categories.ts";
import { requestedStatus, SCHEDULE_IN_PAST } from "#worker/services/blogs/input.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { failureText, refusal, scheduleOnly } from "#app/lib/form-result.ts";
import { withZone } from "#app/lib/datetime.ts";
import { POST_AUTOSAVE_FIELDS, useFormAutosave } from "#app/lib/form-autosave.ts";
import { useLeaveGuard } from "#app/lib/use-leave-guard.ts";
import { DraftNotice, SavedStatus } from "#app/components/AutosaveNotice.tsx";
import { extraFieldsFrom, noEmailFrom, savedTitle } from "#app/lib/blog-form.server.ts";
import { PostExtraFields } from "#app/components/PostExtraFields.tsx";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";

export const handle = { title: "Write Blogs" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Write Blogs", matches);

export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  return { writer: { id: user.id, name: user.name, email: user.email } };
}

/**
 * Parse, create, answer: the service checks the fields and the schedule before it stores the image
 * (no orphans). Writer name and email are not read from the form: the service takes them from the
 * session, so nobody can post as someone else.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request, "image");
  return handleForm(request, form, async () => {
    const input = {
      title: form.get("title"),
      category: form.get("category"),
      short_description: form.get("short_description"),
      blog_details: form.get("blog_details"),
      date_time: withZone(form.get("date_time"), form.get("tz")),
      status: form.get("status"),
      no_email: noEmailFrom(form),
      ...extraFieldsFrom(form),
    };
    const { insertedId, notice } = await context.services.blogs.create(user, input, form.get("image"));
    // A post readers can see now is offered at once: to read it as they will, and to share it.
    const live = (requestedStatus(input) ?? "published") === "published";
    const path = postPath({ _id: insertedId, title: String(input.title ?? "") });
    const links = live
      ? [
          { label: "View it", href: path },
          { label: "Share it", href: `${path}#share` },
        ]
      : undefined;
    // An unverified writer's post is on the site only: they are told why it was not mailed or federated.
    return redirectWithFlash(
      "/dashboard/myBlog",
      notice
        ? { kind: "alert", title: savedTitle(input.status), text: notice, icon: "warning", ...(links ? { links } : {}) }
        : { kind: "toast", title: savedTitle(input.status), icon: "success", ...(links ? { links } : {}) },
    );
  });
}

export default function WriteBlogs() {
  const { writer } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const values = failure?.values ?? {};
  const errors = failure?.fields ?? {};
  const form = useRef<HTMLFormElement>(null);
  const autosave = useFormAutosave(form, {
    key: `draft:writeBlogs:${writer.id}`,
    fields: POST_AUTOSAVE_FIELDS,
    mode: "fill",
    refused: failure,
  });
  useLeaveGuard(autosave.isDirty);

  useEffect(() => {
    // The spec: a refused post is a browser alert with the message (the fields show it too).
    // A past schedule date alone is said once, by the focused summary.
    if (failure && !scheduleOnly(failure, SCHEDULE_IN_PAST)) {
      window.alert(failureText(failure, "The blog could not be posted."));
    }
  }, [failure]);

  return (
    <>
      <DashboardHeader
        title="Write Blogs"
        description="Share a story with readers. Every field is required to post or schedule; a draft needs only a title. Your text is kept on this device while you type, and Save draft keeps it for you alone."
        actions={
          <Link to="/dashboard/myBlog" className={buttonSecondary}>
            My Blogs
          </Link>
        }
      />
      <Form
        ref={form}
        method="post"
        encType="multipart/form-data"
        className="flex flex-col gap-5"
        aria-describedby={failure ? "form-error" : undefined}
      >
        {failure ? (
          <div id="form-error">
            <FormError message={failure.formError ?? "The blog could not be posted."} />
          </div>
        ) : null}
        <DraftNotice autosave={autosave} />

        <Field
          label="Title"
          name="title"
          required
          maxLength={LIMITS.title}
          defaultValue={values.title}
          error={errors.title}
          placeholder="A clear, specific title"
        />

        <div className="grid gap-5 sm:grid-cols-2">
          <Select
            label="Category"
            name="category"
            required
            defaultValue={values.category ?? ""}
            error={errors.category}
          >
            <option value="" disabled>
              Choose a category
            </option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
          <DateTimeField
            label="Date and time"
            required
            error={scheduleOnly(failure, SCHEDULE_IN_PAST) ? undefined : errors.date_time}
            submitted={failure ? { value: values.date_time ?? "", tz: values.tz ?? "" } : null}
          />
        </div>

        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Writer name"
            name="author_name"
            value={writer.name}
            readOnly
            required
            hint="From your account"
          />
          <Field
            label="Writer email"
            name="email"
            type="email"
            value={writer.email}
            readOnly
            required
            hint="From your account"
          />
        </div>

        <ImageField
          label="Cover image"
          required
          error={errors.image}
          hint="JPEG, PNG, WebP, GIF or AVIF, up to 5 MB."
        />

        <TextArea
          label="Short description"
          name="short_description"
          required
          maxLength={LIMITS.shortDescription}
          rows={3}
          defaultValue={values.short_description}
          error={errors.short_description}
          placeholder="One or two sentences that make people want to read on"
        />
        <MarkdownEditor
          label="Details"
          name="blog_details"
          required
          rows={12}
          defaultValue={values.blog_details}
          error={errors.blog_details}
        />
        <PostExtraFields values={values} errors={errors} />

        <PublishChoices
          primary={<SubmitButton pendingText="Posting…">Post Blog</SubmitButton>}
          noEmail={values.no_email === "on"}
          note={<SavedStatus savedAt={autosave.savedAt} />}
        />
      </Form>
    </>
  );
}
