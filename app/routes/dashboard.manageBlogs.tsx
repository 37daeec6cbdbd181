import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { postPath } from "#worker/services/blogs/slug.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { EmptyState } from "#app/components/ui.tsx";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm.tsx";
import { StatusBadge } from "#app/components/StatusBadge.tsx";
import { DashboardHeader, buttonPrimary, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { samePage } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";

export const handle = { title: "Manage Blogs" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Manage Blogs", matches);

const BLOGS_PER_PAGE = 10;

/** One D1 round trip: a page of the person's own posts, newest first, and their total. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const url = new URL(request.url);
  const result = await loadOr404(() =>
    context.services.blogs.ownPage(user, { page: url.searchParams.get("page") }, BLOGS_PER_PAGE),
  );
  // Deleting the last post of the last page lands past the end: show the new last page instead.
  if (result.page > result.pages) {
    throw redirect(result.pages > 1 ? `${url.pathname}?page=${result.pages}` : url.pathname);
  }
  return { result };
}

/** Deletes one of the person's own posts (the service checks ownership; others get the 403 page). */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  if (form.get("intent") !== "delete") return unknownAction(form);
  return handleForm(request, form, async () => {
    const id = String(form.get("id") ?? "");
    await context.services.blogs.remove(user, id);
    return redirectWithFlash(samePage(request), {
      kind: "alert",
      title: MSG.delete.doneTitle,
      text: MSG.delete.doneText,
      icon: "success",
    });
  });
}

const cell = "px-3 py-2 align-top sm:table-cell sm:py-3";
// Below 640 px each row becomes a card whose cells carry their column name, so nothing scrolls sideways.
const stacked =
  "max-sm:flex max-sm:gap-2 max-sm:px-0 max-sm:py-1 max-sm:before:w-16 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:uppercase max-sm:before:tracking-wide max-sm:before:text-gray-500 max-sm:before:content-[attr(data-label)]";

export default function ManageBlogs() {
  const { result } = useLoaderData<typeof loader>();
  const blogs = result.items;
  const offset = (result.page - 1) * result.limit;
  return (
    <>
      <DashboardHeader
        title="Manage Blogs"
        description="Your posts. Edit one to change its text or image, or delete it for good."
        actions={
          <>
            <Link to="/dashboard/myBlog" className={buttonSecondary}>
              My Blogs
            </Link>
            <Link to="/dashboard/writeBlogs" className={buttonPrimary}>
              Write a blog
            </Link>
          </>
        }
      />
      {blogs.length === 0 ? (
        <EmptyState>
          <p className="text-gray-700">{MSG.profile.noBlogs}</p>
          <Link to="/dashboard/writeBlogs" className={`${buttonPrimary} mt-4`}>
            Write your first post
          </Link>
        </EmptyState>
      ) : (
        <div className="overflow-hidden rounded-xl border border-gray-200">
          <table className="w-full text-left text-sm max-sm:block">
            <caption className="sr-only">Your blogs</caption>
            <thead className="bg-gray-50 text-xs font-semibold uppercase tracking-wide text-gray-600 max-sm:sr-only">
              <tr>
                <th scope="col" className="px-3 py-3">
                  #
                </th>
                <th scope="col" className="px-3 py-3">
                  Name
                </th>
                <th scope="col" className="px-3 py-3">
                  Email
                </th>
                <th scope="col" className="px-3 py-3">
                  Title
                </th>
                <th scope="col" className="px-3 py-3">
                  Edit
                </th>
                <th scope="col" className="px-3 py-3">
                  Delete
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 max-sm:block">
              {blogs.map((blog, i) => (
                <tr key={blog._id} className="hover:bg-gray-50/60 max-sm:block max-sm:px-4 max-sm:py-3">
                  <td data-label="#" className={`${cell} ${stacked} tabular-nums text-gray-500`}>
                    {offset + i + 1}
                  </td>
                  <td data-label="Name" className={`${cell} ${stacked} whitespace-nowrap text-gray-800`}>
                    {blog.author_name}
                  </td>
                  <td
                    data-label="Email"
                    className={`${cell} ${stacked} text-gray-600 max-sm:break-all sm:whitespace-nowrap`}
                  >
                    {blog.email}
                  </td>
                  <td data-label="Title" className={`${cell} ${stacked} font-medium text-ink`}>
                    {/* One block: the badge goes under the title, never squeezed beside it (issue 47). */}
                    <div className="min-w-0">
                      <Link to={postPath(blog)} className="hover:text-brand-700 hover:underline">
                        {blog.title}
                      </Link>
                      {blog.status === "published" ? null : (
                        <span className="mt-1 block">
                          <StatusBadge status={blog.status} publishAt={blog.publish_at} />
                        </span>
                      )}
                    </div>
                  </td>
                  <td className={`${cell} max-sm:inline-block max-sm:px-0 max-sm:pt-2`}>
                    <span className="inline-flex gap-2">
                      <Link to={`/dashboard/updateBlog/${blog._id}`} className={rowActionClass("neutral")}>
                        Edit<span className="sr-only"> {blog.title}</span>
                      </Link>
                      <Link to={`/dashboard/blogs/${blog._id}/revisions`} className={rowActionClass("neutral")}>
                        History<span className="sr-only"> of {blog.title}</span>
                      </Link>
                    </span>
                  </td>
                  <td className={`${cell} max-sm:inline-block max-sm:pl-2 max-sm:pr-0 max-sm:pt-2`}>
                    <ConfirmForm
                      fields={{ intent: "delete", id: blog._id }}
                      ask="delete"
                      tone="danger"
                      pendingText="Deleting…"
                    >
                      Delete<span className="sr-only"> {blog.title}</span>
                    </ConfirmForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={result.page} pages={result.pages} label="Manage Blogs pages" />
        </div>
      ) : null}
    </>
  );
}
