import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AnalyticsReport } from "#app/components/analytics/AnalyticsReport.tsx";
import { loadAnalytics } from "#app/lib/analytics.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";

export const handle = { title: "Post analytics" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Post analytics", matches);

/** One post's analytics: its writer's or an admin's (anyone else: 403, an unknown post: 404). */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  return loadAnalytics(context, request, params.id ?? "");
}

export default function PostAnalytics() {
  const data = useLoaderData<typeof loader>();
  return <AnalyticsReport {...data} basePath={`/dashboard/analytics/${data.summary.post?.id ?? ""}`} />;
}
