/**
 * Share links for a post. The spec's shared link is the site origin plus /blog/{id} (not the page's
 * own /blogs/{id}); that path answers a permanent redirect to the post (app/routes/blog.$id.ts).
 */
export function sharedLink(origin: string, blogId: string): string {
  return `${origin}/blog/${encodeURIComponent(blogId)}`;
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
