import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AnalyticsReport } from "#app/components/analytics/AnalyticsReport.tsx";
import { loadAnalytics } from "#app/lib/analytics.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";

export const handle = { title: "Analytics" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Analytics", matches);

/** The site's analytics for an admin, a writer's own posts' for a writer (the service decides). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  return loadAnalytics(context, request);
}

export default function Analytics() {
  const data = useLoaderData<typeof loader>();
  return <AnalyticsReport {...data} basePath="/dashboard/analytics" />;
}
