import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { postPath } from "#worker/services/blogs/slug.ts";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PostForm } from "#app/components/PostForm.tsx";
import { DashboardHeader, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { saveBlogEdit } from "#app/lib/blog-form.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";

export const handle = { title: "Update Blog" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Update Blog", matches);

/** One D1 query: the blog, if the person may edit it (its author or an admin); others get the 403 page. */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const blog = await loadOr404(() => context.services.blogs.editable(user, params.id ?? ""));
  return { blog };
}

/**
 * Empty fields keep their stored values; the service stores a new image only once the edit is accepted.
 * One use case, one read: the post is loaded and its editor checked once (`blogs.edit`), then saved.
 */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const edit = await loadOr404(() => context.services.blogs.edit(user, params.id ?? ""));
  return saveBlogEdit(request, edit.blog, edit.save, "/dashboard/manageBlogs");
}

export default function UpdateBlog() {
  const { blog } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <DashboardHeader
        title="Update Blog"
        description="Change what you need. A field left empty keeps its current value, and the image changes only if you choose a new one."
        actions={
          <>
            <Link to={postPath(blog)} className={buttonSecondary}>
              View post
            </Link>
            <Link to={`/dashboard/blogs/${blog._id}/revisions`} className={buttonSecondary}>
              Revisions
            </Link>
            <Link to="/dashboard/manageBlogs" className={buttonSecondary}>
              Manage Blogs
            </Link>
          </>
        }
      />
      <PostForm mode="edit" blog={blog} result={result} />
    </>
  );
}
