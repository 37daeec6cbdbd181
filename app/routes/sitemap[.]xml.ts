import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { FEED_CACHE, renderSitemap } from "#app/lib/feeds.server.ts";

/** Every public page and every post, with the post's last change. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const posts = await context.services.feeds.postsForSitemap();
  return new Response(renderSitemap(new URL(request.url).origin, posts), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": FEED_CACHE },
  });
}
