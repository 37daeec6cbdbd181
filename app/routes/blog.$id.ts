import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";

/**
 * The spec's shared link is origin + /blog/{id}, while the post lives at /blogs/{id}: shared links
 * answer a permanent redirect so they work and search engines credit the real URL.
 */
export function loader({ params, request }: LoaderFunctionArgs) {
  // The query (a `?ref=`, campaign tags) goes along: the post's page and its analytics read it there.
  return redirect(`/blogs/${encodeURIComponent(params.id ?? "")}${new URL(request.url).search}`, 301);
}
