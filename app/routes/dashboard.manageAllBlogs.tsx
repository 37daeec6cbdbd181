import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { postPath } from "#worker/services/blogs/slug.ts";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmForm, rowActionClass } from "#app/components/ConfirmForm.tsx";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { DataTable } from "#app/components/DataTable.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { TableSearch } from "#app/components/TableSearch.tsx";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { MAX_SEARCH_CHARS } from "#worker/services/shared/limits.ts";
import { StatusBadge } from "#app/components/StatusBadge.tsx";
import { deleteAction, samePage } from "#app/lib/admin.server.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { RowPostForm } from "#app/components/RowPostForm.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";

export const handle = { title: "Manage All Blogs" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Manage All Blogs", matches);

const BLOGS_PER_PAGE = 10;

/** One D1 round trip: the page of blogs and the total, batched by the service. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, MAX_SEARCH_CHARS);
  const blogs = await loadOr404(() =>
    context.services.blogs.adminPage(
      admin,
      { page: url.searchParams.get("page"), limit: BLOGS_PER_PAGE, q },
      BLOGS_PER_PAGE,
    ),
  );
  // Deleting the last post of the last page lands past the end: show the new last page instead.
  if (blogs.page > blogs.pages) {
    const back = new URLSearchParams(url.search);
    if (blogs.pages > 1) back.set("page", String(blogs.pages));
    else back.delete("page");
    throw redirect(`${url.pathname}${back.size ? `?${back}` : ""}`);
  }
  return { blogs, q };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  return deleteAction(request, (id) => context.services.blogs.remove(admin, id), {
    // Feature on the home page, or not: the service purges the home page.
    feature: async (form) => {
      const featured = form.get("featured") === "1";
      await context.services.featured.set(admin, String(form.get("id") ?? ""), { featured });
      const title = featured ? MSG.admin.featured : MSG.admin.unfeatured;
      return redirectWithFlash(samePage(request), { kind: "toast", icon: "success", title });
    },
  });
}

export default function ManageAllBlogs() {
  const { blogs, q } = useLoaderData<typeof loader>();
  const offset = (blogs.page - 1) * blogs.limit;
  return (
    <>
      <DashboardHeader
        title="Manage All Blogs"
        description={
          q
            ? `${blogs.total} ${blogs.total === 1 ? "post matches" : "posts match"} “${q}”, newest first.`
            : `${blogs.total} ${blogs.total === 1 ? "post" : "posts"} by every writer, newest first. Featured posts show on the home page once published.`
        }
      />
      <TableSearch
        q={q}
        label="Search blogs by title, writer or email"
        placeholder="Search by title, writer or email"
      />
      <DataTable
        caption="All blogs"
        rows={blogs.items}
        rowKey={(b) => b._id}
        empty={q ? "No post matches this search." : "No blogs yet."}
        columns={[
          {
            header: "#",
            cell: (_, i) => <span className="text-gray-500 tabular-nums">{offset + i + 1}</span>,
            className: "sm:w-12",
            mobile: "hide",
          },
          {
            header: "Name",
            cell: (b) => <span className="font-medium text-ink">{b.author_name}</span>,
            className: "sm:whitespace-nowrap",
          },
          {
            header: "Email",
            cell: (b) => (
              <span className="break-all text-gray-700 sm:break-normal sm:whitespace-nowrap">{b.email}</span>
            ),
          },
          {
            header: "Title",
            mobile: "title",
            cell: (b) => (
              <>
                <Link to={postPath(b)} className="line-clamp-2 font-medium text-brand-700 hover:underline">
                  {b.title}
                </Link>
                {b.status === "published" ? null : (
                  <span className="mt-1 block">
                    <StatusBadge status={b.status} publishAt={b.publish_at} />
                  </span>
                )}
              </>
            ),
          },
          {
            header: "Featured",
            action: true,
            cell: (b) => (
              <RowPostForm
                fields={{ intent: "feature", id: b._id, featured: b.featured ? "0" : "1" }}
                tone={b.featured ? "primary" : "neutral"}
                pressed={b.featured}
                pendingText="Saving…"
              >
                <span aria-hidden="true">{b.featured ? "★" : "☆"}</span> Featured
                <span className="sr-only"> on the home page: {b.title}</span>
              </RowPostForm>
            ),
          },
          {
            header: "Edit",
            action: true,
            cell: (b) => (
              <span className="inline-flex gap-2">
                <Link to={`/dashboard/updateAllBlogs/${b._id}`} className={rowActionClass()}>
                  Edit<span className="sr-only"> {b.title}</span>
                </Link>
                <Link to={`/dashboard/blogs/${b._id}/revisions`} className={rowActionClass("neutral")}>
                  History<span className="sr-only"> of {b.title}</span>
                </Link>
              </span>
            ),
          },
          {
            header: "Delete",
            action: true,
            cell: (b) => (
              <ConfirmForm fields={{ intent: "delete", id: b._id }} tone="danger" ask="delete" pendingText="Deleting…">
                Delete<span className="sr-only"> {b.title}</span>
              </ConfirmForm>
            ),
          },
        ]}
      />
      {blogs.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={blogs.page} pages={blogs.pages} label="Blog pages" />
        </div>
      ) : null}
    </>
  );
}
