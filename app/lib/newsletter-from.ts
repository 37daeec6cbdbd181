/**
 * The post a newsletter subscription is credited to in the analytics: the post's "Get new posts by email"
 * link (`?from=<id>`), or this site's /blogs/{id}/... as the referrer; "" when neither. Read in the browser
 * (the page is the same cached copy for everyone) by <NewsletterForm> and by the reading pages' island.
 */
export function newsletterFromPost(): string {
  const linked = new URLSearchParams(location.search).get("from");
  if (linked && /^[0-9a-z]{8,40}$/.test(linked)) return linked;
  try {
    const ref = new URL(document.referrer);
    const m = /^\/blogs\/([0-9a-z]{8,40})(\/|$)/.exec(ref.pathname);
    if (ref.origin === location.origin && m) return m[1]!;
  } catch {
    // No referrer, or not a URL: no post to credit.
  }
  return "";
}
