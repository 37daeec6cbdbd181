import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";

/** The analytics page's numbers as CSV: the same scope and range (?from&to[&post]) as the page. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const url = new URL(request.url);
  const query = {
    from: url.searchParams.get("from") ?? undefined,
    to: url.searchParams.get("to") ?? undefined,
    post: url.searchParams.get("post") || undefined,
  };
  const csv = await loadOr404(() => context.services.analytics.csv(user, query));
  // The whole range in the name (issue 47), so two exports of different ranges never share a name.
  const span = query.from && query.to ? `${query.from}-to-${query.to}` : (query.from ?? "last-30-days");
  const name = `analytics-${query.post ? `${query.post}-` : ""}${span}.csv`;
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name.replace(/[^\w.-]/g, "")}"`,
    },
  });
}
