import { parseId, postIdOfPath } from "#worker/services/shared/ids.ts";

/**
 * The post a newsletter subscription is credited to in the analytics: the post's "Get new posts by email"
 * link (`?from=<id>`), or this site's /blogs/{id}/... as the referrer; "" when neither. Read in the browser
 * (the page is the same cached copy for everyone) by <NewsletterForm> and by the reading pages' island.
 */
export function newsletterFromPost(): string {
  const linked = parseId(new URLSearchParams(location.search).get("from"));
  if (linked) return linked;
  try {
    const ref = new URL(document.referrer);
    const post = postIdOfPath(ref.pathname);
    if (ref.origin === location.origin && post) return post;
  } catch {
    // No referrer, or not a URL: no post to credit.
  }
  return "";
}
