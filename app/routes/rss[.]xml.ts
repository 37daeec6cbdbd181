import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { FEED_CACHE, renderRss } from "#app/lib/feeds.server";

/** RSS 2.0 feed of the latest 20 posts. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const items = await context.services.feeds.latestForRss();
  return new Response(renderRss(new URL(request.url).origin, items), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": FEED_CACHE },
  });
}
