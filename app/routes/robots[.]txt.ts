import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { FEED_CACHE, renderRobots } from "#app/lib/feeds.server.ts";

export function loader({ request }: LoaderFunctionArgs) {
  return new Response(renderRobots(new URL(request.url).origin), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": FEED_CACHE },
  });
}
