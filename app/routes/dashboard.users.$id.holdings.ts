import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { holdingsText } from "#app/lib/holdings.ts";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";

/**
 * What deleting an account takes with it, for Manage Users' delete dialog: one query
 * (users.holdings), admins only, never cached (a dashboard answer is private).
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const holdings = await loadOr404(() => context.services.users.holdings(admin, params.id ?? ""));
  return Response.json({ ...holdings, text: holdingsText(holdings) });
}
