import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";

/**
 * The spec's shared link is origin + /blog/{id}, while the post lives at /blogs/{id}: shared links
 * answer a permanent redirect so they work and search engines credit the real URL.
 */
export function loader({ params }: LoaderFunctionArgs) {
  return redirect(`/blogs/${encodeURIComponent(params.id ?? "")}`, 301);
}
