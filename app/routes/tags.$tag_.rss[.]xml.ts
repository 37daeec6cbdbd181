import { configOf } from "#worker/config.ts";
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { FEED_CACHE, renderRss, rssPath } from "#app/lib/feeds.server.ts";
import { tagKey } from "#worker/services/blogs/tags.ts";

/**
 * /tags/{slug}/rss.xml: RSS 2.0 of the latest 20 visible posts carrying a tag, titled with its usual
 * spelling. Another spelling of the tag in the path is a 301 to its slug's feed (as the tag's page); a path
 * with no letter or digit is a plain-text 404; a tag nobody uses yet is an empty feed (a reader may
 * subscribe early).
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const asked = params.tag ?? "";
  const slug = tagKey(asked);
  if (!slug) {
    return new Response("No such tag.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  if (asked !== slug) throw redirect(rssPath(undefined, slug), 301);
  const [items, tag] = await Promise.all([
    context.services.feeds.latestForRss(undefined, slug),
    context.services.tags.find(slug),
  ]);
  return new Response(renderRss(configOf(context.env).siteName, url.origin, items, undefined, slug, tag?.name), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": FEED_CACHE },
  });
}
