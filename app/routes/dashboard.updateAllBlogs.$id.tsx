import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { blogChangesInput } from "../../worker/services/blogs";
import { BlogEditForm } from "~/components/BlogEditForm";
import { DashboardHeader, buttonSecondary } from "~/components/DashboardHeader";
import { blogChangesFrom } from "~/lib/blog-form.server";
import { dashboardMeta } from "~/lib/dashboard";
import { redirectWithFlash } from "~/lib/flash.server";
import { handleForm, loadOr404, readForm } from "~/lib/forms.server";
import { requireAdmin } from "~/lib/guards.server";
import { MSG } from "~/lib/messages";
import { checkBeforeUpload, uploadImage } from "~/lib/uploads.server";

export const handle = { title: "Update Blog" };

export const meta: MetaFunction = () => dashboardMeta("Update Blog");

/** One D1 query: the blog to preload (any blog: this is the admin's edit). */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  requireAdmin(context, request);
  return { blog: await loadOr404(() => context.services.blogs.byId(params.id ?? "")) };
}

/**
 * The admin edit (the service's adminUpdate, PUT /blogs/{id}): the same outcomes as a writer's own
 * edit. The blog is read first so a missing one is the 404 page before any image is uploaded.
 */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const admin = requireAdmin(context, request);
  const id = params.id ?? "";
  const blog = await loadOr404(() => context.services.blogs.byId(id));
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const file = form.get("image");
    const input = blogChangesFrom(form, blog.date_time);
    checkBeforeUpload(blogChangesInput, input, file);
    const image = await uploadImage(context, admin, file, { required: false });
    const { modifiedCount } = await context.services.blogs.adminUpdate(admin, id, { ...input, image });
    if (modifiedCount === 0) return data({ ok: true as const, modifiedCount });
    return redirectWithFlash("/dashboard/manageAllBlogs", { kind: "toast", icon: "success", title: MSG.blog.updated });
  });
}

export default function UpdateAllBlogs() {
  const { blog } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();

  return (
    <>
      <DashboardHeader
        title="Update Blog"
        description={`A post by ${blog.author_name}. Empty fields keep their current values; the image changes only if you choose a new one.`}
        actions={
          <>
            <Link to={`/blogs/${blog._id}`} className={buttonSecondary}>
              View post
            </Link>
            <Link to="/dashboard/manageAllBlogs" className={buttonSecondary}>
              Manage Blogs
            </Link>
          </>
        }
      />
      <BlogEditForm blog={blog} result={result} />
    </>
  );
}
