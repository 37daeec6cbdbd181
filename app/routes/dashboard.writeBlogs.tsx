import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { PostForm } from "#app/components/PostForm.tsx";
import { requestedStatus } from "#worker/services/blogs/input.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { withZone } from "#app/lib/datetime.ts";
import {
  coverFrom,
  extraFieldsFrom,
  noEmailFrom,
  savedTitle,
  scheduledText,
  SOCIAL_IMAGE_FILE,
} from "#app/lib/blog-form.server.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";

export const handle = { title: "Write Blogs" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Write Blogs", matches);

export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  // What the writer was typing in another browser, kept for their account alone (never a post).
  const autosave = await context.services.postAutosave.get(user);
  return { writer: { id: user.id, name: user.name, email: user.email }, autosave };
}

/**
 * Parse, create, answer: the service checks the fields and the schedule before it stores the image
 * (no orphans). Writer name and email are not read from the form: the service takes them from the
 * session, so nobody can post as someone else.
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request, "post");
  return handleForm(request, form, async () => {
    const cover = coverFrom(form);
    const input = {
      title: form.get("title"),
      category: form.get("category"),
      short_description: form.get("short_description"),
      blog_details: form.get("blog_details"),
      date_time: withZone(form.get("date_time"), form.get("tz")),
      status: form.get("status"),
      no_email: noEmailFrom(form),
      ...extraFieldsFrom(form),
      ...(cover.url ? { image: cover.url } : {}),
    };
    const { insertedId, notice } = await context.services.blogs.create(
      user,
      input,
      cover.upload,
      form.get(SOCIAL_IMAGE_FILE),
    );
    // Posted: the words kept for the writer's other devices have done their job.
    await context.services.postAutosave.clear(user);
    // A post readers can see now is offered at once: to read it as they will, and to share it.
    const live = (requestedStatus(input) ?? "published") === "published";
    const path = postPath({ _id: insertedId, title: String(input.title ?? ""), slug: String(input.slug ?? "").trim() });
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
        : {
            kind: "toast",
            title: savedTitle(input.status),
            icon: "success",
            ...scheduledText(input.status, input.date_time, form.get("tz")),
            ...(links ? { links } : {}),
          },
    );
  });
}

export default function WriteBlogs() {
  const { writer, autosave } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <DashboardHeader
        title="Write Blogs"
        description="Share a story with readers. Every field is required to post or schedule; a draft needs only a title. Your text is kept on this device and for your account while you type, and Save draft keeps it for you alone."
        actions={
          <Link to="/dashboard/myBlog" className={buttonSecondary}>
            My Blogs
          </Link>
        }
      />
      <PostForm mode="new" writer={writer} autosave={autosave} result={result} />
    </>
  );
}
