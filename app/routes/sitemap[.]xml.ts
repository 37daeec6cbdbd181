import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { FEED_CACHE, renderSitemapIndex } from "#app/lib/feeds.server.ts";

/**
 * The sitemap index: the public pages' file and one file per SITEMAP_FILE_URLS posts (each at most
 * 1,000 URLs, far under the protocol's 50,000). Cached and purged with every blog write ("blogs" tag).
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const files = await context.services.feeds.sitemapFiles();
  return new Response(renderSitemapIndex(new URL(request.url).origin, files), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": FEED_CACHE },
  });
}
