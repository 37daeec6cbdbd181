import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadOr404 } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { RateLimited } from "#worker/services/shared/errors.ts";
import { attachment } from "#worker/services/export/format.ts";

/** The whole site's zip, streamed as it is written (worker/services/export/site.ts). Admins only. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const { filename, body } = await loadOr404(async () => {
    try {
      return await context.services.siteExport.create(admin);
    } catch (err) {
      if (err instanceof RateLimited) throw new Response(err.message, { status: 429 });
      throw err;
    }
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": attachment(filename),
      "Cache-Control": "private, no-store",
    },
  });
}
