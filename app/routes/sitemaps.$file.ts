import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { FEED_CACHE, renderSitemap } from "#app/lib/feeds.server.ts";

/**
 * A file of the sitemap index: /sitemaps/pages.xml (the public pages) or /sitemaps/posts-{n}.xml (the
 * n-th SITEMAP_FILE_URLS posts, oldest first, with their last change). Anything else, or a file past
 * the last one, is a 404.
 */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const origin = new URL(request.url).origin;
  const name = params.file ?? "";
  const xml = (body: string) =>
    new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": FEED_CACHE } });
  if (name === "pages.xml") return xml(renderSitemap(origin, [], true));
  const match = /^posts-([1-9]\d{0,5})\.xml$/.exec(name);
  const file = match ? Number(match[1]) : 0;
  const posts = file ? await context.services.feeds.postsForSitemap(file) : [];
  if (!posts.length) throw new Response("No such sitemap.", { status: 404 });
  return xml(renderSitemap(origin, posts));
}
