import { postPath } from "#worker/services/blogs/slug.ts";

/**
 * Share links for a post. The spec shared origin + /blog/{id}; the readable link
 * /blogs/{id}/{slug} the one every share, canonical, feed and sitemap carries. /blog/{id} and
 * /blogs/{id} still answer a permanent redirect to it (app/routes/blog.$id.ts).
 */
export function sharedLink(origin: string, blog: { _id: string; title: string }): string {
  return `${origin}${postPath(blog)}`;
}

export type ShareTargetName = "Facebook" | "Twitter" | "LinkedIn" | "WhatsApp";

export interface ShareTarget {
  name: ShareTargetName;
  href: string;
}

/** Facebook, Twitter, LinkedIn and WhatsApp, each built from the shared link. */
export function shareTargets(link: string, title: string): ShareTarget[] {
  const url = encodeURIComponent(link);
  const text = encodeURIComponent(title);
  return [
    { name: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${url}` },
    { name: "Twitter", href: `https://twitter.com/intent/tweet?url=${url}&text=${text}` },
    { name: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${url}` },
    { name: "WhatsApp", href: `https://api.whatsapp.com/send?text=${encodeURIComponent(`${title} ${link}`)}` },
  ];
}
