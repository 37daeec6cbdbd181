/**
 * Readable links: a post lives at /blogs/{id}/{slug}, the slug made from its title. The id
 * alone finds the post; the slug is only for people and search engines, so it is computed, never
 * stored: a retitle changes the link at once, and every older slug (or none) answers a permanent
 * redirect to the current one (app/routes/blogs.$id.($slug)/route.tsx).
 */
export const SLUG_MAX = 80;

/** What a slug may look like in a URL (the cache policy's allow-list reads it too). */
export const SLUG_PATTERN = "[a-z0-9]+(?:-[a-z0-9]+)*";

/**
 * Lower-case ASCII letters and digits joined by single hyphens, at most SLUG_MAX characters, cut at a
 * word boundary. Accents are dropped (Unicode NFKD, then the combining marks removed); a title with no
 * Latin letters or digits at all gets "post".
 */
export function slugOf(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_MAX) {
      if (!slug) slug = word.slice(0, SLUG_MAX);
      break;
    }
    slug = next;
  }
  return slug || "post";
}

/** The readable path of a post: /blogs/{id}/{slug}. */
export function postPath(post: { _id: string; title: string } | { id: string; title: string }): string {
  const id = "_id" in post ? post._id : post.id;
  return `/blogs/${encodeURIComponent(id)}/${slugOf(post.title)}`;
}

/** A tag's page: /tags/{tag}. Tags are already in their one URL spelling (blogs/tags.ts). */
export function tagPath(tag: string): string {
  return `/tags/${encodeURIComponent(tag)}`;
}
