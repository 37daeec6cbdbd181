import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadOr404 } from "#app/lib/forms.server.ts";
import type { SitePageSlug } from "#worker/services/site-pages.ts";

/** The loader of /privacy and /terms: the page's text (an admin's, or the default), rendered. */
export const sitePageLoader =
  (slug: SitePageSlug) =>
  async ({ context, request }: LoaderFunctionArgs) => ({
    page: await loadOr404(() => context.services.sitePages.get(slug)),
    origin: new URL(request.url).origin,
  });
