import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { postPath } from "#worker/services/blogs/slug.ts";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PostForm } from "#app/components/PostForm.tsx";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { saveBlogEdit } from "#app/lib/blog-form.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";

export const handle = { title: "Update Blog" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Update Blog", matches);

/** One D1 query: the blog to preload (any blog: this is the admin's edit). */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  return { blog: await loadOr404(() => context.services.blogs.byId(params.id ?? "", admin)) };
}

/**
 * The admin edit (the service's adminEdit, as PUT /blogs/{id}): the same outcomes as a writer's own
 * edit. The blog is read once, first, so a missing one is the 404 page before the form is read.
 */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const edit = await loadOr404(() => context.services.blogs.adminEdit(admin, params.id ?? ""));
  return saveBlogEdit(request, edit.blog, edit.save, "/dashboard/manageAllBlogs");
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
            <Link to={postPath(blog)} className={buttonSecondary}>
              View post
            </Link>
            <Link to={`/dashboard/blogs/${blog._id}/revisions`} className={buttonSecondary}>
              Revisions
            </Link>
            <Link to="/dashboard/manageAllBlogs" className={buttonSecondary}>
              Manage Blogs
            </Link>
          </>
        }
      />
      <PostForm mode="edit" blog={blog} result={result} />
    </>
  );
}
