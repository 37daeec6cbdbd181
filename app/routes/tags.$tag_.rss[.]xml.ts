import { configOf } from "#worker/config.ts";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { FEED_CACHE, renderRss } from "#app/lib/feeds.server.ts";
import { isTag } from "#worker/services/blogs/tags.ts";

/**
 * /tags/{tag}/rss.xml: RSS 2.0 of the latest 20 visible posts carrying a tag. A malformed tag
 * is a plain-text 404; a well-formed one nobody uses yet is an empty feed (a reader may subscribe early).
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tag = params.tag ?? "";
  if (!isTag(tag)) {
    return new Response("No such tag.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const items = await context.services.feeds.latestForRss(undefined, tag);
  return new Response(renderRss(configOf(context.env).siteName, url.origin, items, undefined, tag), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": FEED_CACHE },
  });
}
