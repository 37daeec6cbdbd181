import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { postPath } from "#worker/services/blogs/slug.ts";
import { Link, useLoaderData } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { DataTable, type Column } from "#app/components/DataTable.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { ViewsChart } from "#app/components/ViewsChart.tsx";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import type { PostStats } from "#worker/services/views.ts";

export const handle = { title: "Stats" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Stats", matches);

/**
 * A writer's own posts, or for an admin the whole site. Pending views are flushed first, so the page
 * shows every view counted so far (eight counters, one D1 batch each at most); then one D1 batch reads.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  await context.services.views.flushAll();
  const page = new URL(request.url).searchParams.get("page");
  return { stats: await loadOr404(() => context.services.views.stats(user, { page })) };
}

const num = (n: number) => <span className="tabular-nums">{n.toLocaleString("en-US")}</span>;

const STATUS_LABEL = { draft: "Draft", scheduled: "Scheduled", published: "Published" } as const;

const columns: Column<PostStats>[] = [
  {
    header: "Post",
    mobile: "title",
    cell: (p) => (
      <span className="min-w-0">
        <Link to={postPath(p)} className="font-medium text-ink hover:text-brand-700 hover:underline">
          {p.title}
        </Link>
        {p.status !== "published" ? (
          <span className="ml-2 rounded-full bg-gray-100 px-2 py-0.5 text-xs font-semibold text-gray-600">
            {STATUS_LABEL[p.status]}
          </span>
        ) : null}
      </span>
    ),
  },
  { header: "Views", cell: (p) => num(p.views) },
  { header: "Last 30 days", cell: (p) => num(p.views30) },
  { header: "Likes", cell: (p) => num(p.likes) },
  { header: "Comments", cell: (p) => num(p.comments) },
  { header: "Saves", cell: (p) => num(p.saves) },
];

export default function Stats() {
  const { stats } = useLoaderData<typeof loader>();
  const site = stats.scope === "site";
  const tiles = [
    ["Views, last 30 days", stats.totals.views30],
    ["Views in all", stats.totals.views],
    ["Likes", stats.totals.likes],
    ["Comments", stats.totals.comments],
    ["Saves", stats.totals.saves],
  ] as const;
  return (
    <>
      <DashboardHeader
        title="Stats"
        description={
          site
            ? "Every post of the site: views, likes, comments and saves, all time. A reader counts once per post and day; bots and writers reading their own posts do not count. Where readers came from, day by day, is in Analytics."
            : "Your posts: views, likes, comments and saves, all time. A reader counts once per post and day; bots and your own visits do not count. Where readers came from, day by day, is in Analytics."
        }
      />
      <dl className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {tiles.map(([label, value]) => (
          <div key={label} className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
            <dt className="text-xs font-semibold uppercase tracking-wide text-gray-500">{label}</dt>
            <dd className="mt-1 text-2xl font-bold text-ink">{num(value)}</dd>
          </div>
        ))}
      </dl>
      <ViewsChart
        daily={stats.daily}
        label={site ? "Site views per day, last 30 days" : "Views per day, last 30 days"}
      />
      <h2 className="mb-3 mt-8 text-lg font-semibold text-ink">{site ? "All posts" : "Your posts"}</h2>
      <DataTable
        caption={site ? "Stats of every post" : "Stats of your posts"}
        columns={columns}
        rows={stats.posts.items}
        rowKey={(p) => p._id}
        empty={<p>No posts yet. Stats appear here once you publish.</p>}
      />
      {stats.posts.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={stats.posts.page} pages={stats.posts.pages} label="Stats pages" />
        </div>
      ) : null}
    </>
  );
}
