import { configOf } from "#worker/config.ts";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { FEED_CACHE, renderRss } from "#app/lib/feeds.server.ts";
import { CATEGORIES, isCategory } from "#worker/services/categories.ts";

/**
 * RSS 2.0 feed of the latest 20 posts, or of one category's (`?category=AI`). An unknown category is a
 * plain-text 404 naming the real ones, rather than an empty feed a reader would subscribe to by mistake.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const category = url.searchParams.get("category");
  if (category !== null && !isCategory(category)) {
    return new Response(`No such category. Feeds exist for: ${CATEGORIES.join(", ")}.\n`, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const items = await context.services.feeds.latestForRss(category ?? undefined);
  return new Response(renderRss(configOf(context.env).siteName, url.origin, items, category ?? undefined), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": FEED_CACHE },
  });
}
