import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { postPath } from "#worker/services/blogs/slug.ts";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { EmptyState } from "#app/components/ui.tsx";
import { Link, useLoaderData } from "@remix-run/react";
import { DashboardHeader, buttonPrimary, buttonSecondary } from "#app/components/DashboardHeader.tsx";
import { ADMIN_MENU, dashboardMeta } from "#app/lib/dashboard.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { Image } from "#app/components/Image.tsx";

export const handle = { title: "Overview" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Overview", matches);

/** One D1 round trip: the person's three newest posts and their total (a batch). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const recent = await context.services.blogs.ownPage(user, { page: 1, limit: 3 });
  return { name: user.name, isAdmin: user.role === "admin", total: recent.total, recent: recent.items };
}

export default function DashboardIndex() {
  const { name, isAdmin, total, recent } = useLoaderData<typeof loader>();
  const first = name.trim().split(/\s+/)[0] || name;
  const shortcuts = [
    { to: "/dashboard/writeBlogs", label: "Write Blogs", text: "Start a new post with a cover image." },
    { to: "/dashboard/myBlog", label: "My Blogs", text: "Your posts as readers see them." },
    { to: "/dashboard/manageBlogs", label: "Manage Blogs", text: "Edit or delete your posts." },
    { to: "/dashboard/feedback", label: "Send Feedback", text: "Tell us how we are doing." },
  ];
  return (
    <>
      <DashboardHeader
        title={`Welcome back, ${first}`}
        description={
          isAdmin
            ? "Run the site from the menu, or write a post of your own."
            : "Write, publish and manage your posts from here."
        }
        actions={
          <Link to="/dashboard/writeBlogs" className={buttonPrimary}>
            Write a blog
          </Link>
        }
      />

      <section aria-labelledby="stats-heading" className="grid gap-4 sm:grid-cols-2">
        <h2 id="stats-heading" className="sr-only">
          At a glance
        </h2>
        <div className="rounded-2xl bg-gradient-to-br from-brand-600 to-brand-700 p-5 text-white shadow-sm">
          <p className="text-sm font-medium text-white/80">Your published posts</p>
          <p className="mt-1 text-4xl font-extrabold tabular-nums" data-testid="post-count">
            {total}
          </p>
          <Link
            to="/dashboard/myBlog"
            className="mt-3 inline-block text-sm font-semibold text-white underline underline-offset-4 hover:no-underline"
          >
            See My Blogs
          </Link>
        </div>
        <div className="rounded-2xl border border-gray-200 p-5">
          <p className="text-sm font-medium text-gray-600">Your account</p>
          <p className="mt-1 text-lg font-semibold text-ink">{isAdmin ? "Administrator" : "Writer"}</p>
          <p className="mt-1 text-sm text-gray-600">
            Your profile, bio and designation live on{" "}
            <Link to="/Profile" className="font-semibold text-brand-700 underline underline-offset-2">
              your Profile
            </Link>
            .
          </p>
        </div>
      </section>

      <section aria-labelledby="shortcuts-heading" className="mt-8">
        <h2 id="shortcuts-heading" className="text-lg font-semibold text-ink">
          Your writing
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          {shortcuts.map((s) => (
            <li key={s.to}>
              <Link
                to={s.to}
                className="flex h-full flex-col rounded-xl border border-gray-200 p-4 transition hover:border-brand-300 hover:bg-brand-50/50"
              >
                <span className="text-sm font-semibold text-brand-700">{s.label}</span>
                <span className="mt-1 text-sm text-gray-600">{s.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      {isAdmin ? (
        <section aria-labelledby="admin-heading" className="mt-8">
          <h2 id="admin-heading" className="text-lg font-semibold text-ink">
            Administration
          </h2>
          <ul className="mt-3 flex flex-wrap gap-2">
            {ADMIN_MENU.filter((l) => l.to !== "/").map((l) => (
              <li key={l.to}>
                <Link to={l.to} className={buttonSecondary}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="recent-heading" className="mt-8">
        <h2 id="recent-heading" className="text-lg font-semibold text-ink">
          Recent posts
        </h2>
        {recent.length === 0 ? (
          <EmptyState as="p" className="mt-3">
            {MSG.profile.noBlogs}{" "}
            <Link to="/dashboard/writeBlogs" className="font-semibold text-brand-700 underline underline-offset-2">
              Write your first post
            </Link>
          </EmptyState>
        ) : (
          <ul className="mt-3 divide-y divide-gray-100 rounded-xl border border-gray-200">
            {recent.map((b) => (
              <li key={b._id} className="flex items-center gap-4 p-3 sm:p-4">
                <Image
                  src={b.image}
                  alt=""
                  width={96}
                  height={54}
                  sizes="96px"
                  maxWidth={320}
                  className="hidden aspect-[16/9] w-24 shrink-0 rounded-lg object-cover sm:block"
                />
                <div className="min-w-0 flex-1">
                  <Link to={postPath(b)} className="line-clamp-2 font-semibold text-ink hover:text-brand-700">
                    {b.title}
                  </Link>
                  <p className="mt-0.5 text-xs text-gray-500">
                    {b.category} · <LocalTime iso={b.date_time} />
                  </p>
                </div>
                <Link
                  to={`/dashboard/updateBlog/${b._id}`}
                  className="shrink-0 text-sm font-semibold text-brand-700 hover:underline"
                  aria-label={`Edit ${b.title}`}
                >
                  Edit
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
