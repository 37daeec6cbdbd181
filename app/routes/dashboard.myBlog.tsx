import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { EmptyState } from "#app/components/ui.tsx";
import { Link, useLoaderData } from "@remix-run/react";
import { BlogCard } from "#app/components/BlogCard.tsx";
import { DashboardHeader, buttonPrimary, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { toCardPage } from "#app/lib/cards.ts";

/** My Blogs: 3 a page (spec section 9). */
const MY_BLOGS_PER_PAGE = 3;

export const handle = { title: "My Blogs" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("My Blogs", matches);

/** The page of the person's own posts with their total (a batch), and how many of them are published. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const page = new URL(request.url).searchParams.get("page");
  return loadOr404(async () => {
    const [list, published] = await Promise.all([
      context.services.blogs.ownPage(user, { page, limit: MY_BLOGS_PER_PAGE }, MY_BLOGS_PER_PAGE),
      context.services.blogs.ownPublishedCount(user),
    ]);
    return { ...toCardPage(list), published };
  });
}

export default function MyBlogs() {
  const { items, total, page, pages, published } = useLoaderData<typeof loader>();
  return (
    <>
      <DashboardHeader
        title="My Blogs"
        description={published === 1 ? "You have published 1 post." : `You have published ${published} posts.`}
        actions={
          <>
            <Link to="/dashboard/manageBlogs" className={buttonSecondary}>
              Manage Blogs
            </Link>
            <Link to="/dashboard/writeBlogs" className={buttonPrimary}>
              Write a blog
            </Link>
          </>
        }
      />
      {items.length === 0 ? (
        <EmptyState>
          <p className="text-gray-700">{total === 0 ? MSG.profile.noBlogs : "There are no posts on this page."}</p>
          <Link to={total === 0 ? "/dashboard/writeBlogs" : "/dashboard/myBlog"} className={`${buttonPrimary} mt-4`}>
            {total === 0 ? "Write your first post" : "Back to the first page"}
          </Link>
        </EmptyState>
      ) : (
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 xl:grid-cols-3">
          {items.map((blog, i) => (
            <BlogCard key={blog._id} blog={blog} eager={i === 0} />
          ))}
        </div>
      )}
      {pages > 1 ? (
        <div className="mt-8">
          <Pagination page={page} pages={pages} label="My Blogs pages" />
        </div>
      ) : null}
    </>
  );
}
