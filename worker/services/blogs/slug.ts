/**
 * Readable links: a post lives at /blogs/{id}/{slug}. The slug is the writer's own when they chose one
 * (stored in blogs.slug, unique among posts), else computed from the title. The id alone finds the post;
 * the slug is only for people and search engines, so a retitle or a new slug changes the link at once,
 * and every older slug (or none) answers a permanent redirect to the current one
 * (app/routes/blogs.$id.($slug)/route.tsx, docs/decisions/028-readable-links.md).
 */
export const SLUG_MAX = 80;

/**
 * What a slug may look like in a URL's path (the cache policy's allow-list reads it): a chosen slug in
 * another script arrives percent-encoded (UTF-8 bytes, upper-case hex as encodeURIComponent writes them).
 */
export const SLUG_PATTERN = "(?:[a-z0-9]|%[0-9A-F]{2})+(?:-(?:[a-z0-9]|%[0-9A-F]{2})+)*";

/**
 * A chosen slug: lower-case letters of any script (with their combining marks), digits and single
 * hyphens between them. Scripts without case (Chinese, Arabic, ...) are letters too; capitals are not.
 */
const CHOSEN_SLUG =
  /^[\p{Ll}\p{Lo}\p{Lm}\p{Nd}][\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}]*(?:-[\p{Ll}\p{Lo}\p{Lm}\p{Nd}][\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}]*)*$/u;

export const SLUG_RULE = "A slug may have only lower-case letters, digits and single hyphens between them.";

/** Whether a writer's slug is well formed (its length is checked by the schema, SLUG_MAX). */
export function isChosenSlug(slug: string): boolean {
  return CHOSEN_SLUG.test(slug);
}

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

/** A post's slug: the writer's chosen one, else the title's. */
export function slugFor(post: { title: string; slug?: string | null }): string {
  return post.slug || slugOf(post.title);
}

/** The readable path of a post: /blogs/{id}/{slug}, its chosen slug if it has one (Blog.slug and BlogRow.slug both). */
export function postPath(post: ({ _id: string } | { id: string }) & { title: string; slug?: string | null }): string {
  const id = "_id" in post ? post._id : post.id;
  return `/blogs/${encodeURIComponent(id)}/${encodeURIComponent(slugFor(post))}`;
}

/**
 * A tag's slug: its identity and the tail of its URL, in any script. Compatibility-normalised (NFKC: a
 * full-width "Ｗｅｂ" is "web") and lower-cased; letters (with their combining marks) and digits of any
 * script are kept, apostrophes and invisible format characters dropped ("Don't" is "dont", as before), and
 * every other run of spaces or punctuation becomes one hyphen ("Web Performance" -> "web-performance",
 * "café" -> "café", "数据库" -> "数据库"). Composed again (NFC), so "café" typed either way is one tag.
 * "" when nothing is left ("###", "🚀"). The old ASCII spellings ("edge-cache") are their own slugs, so
 * the tags stored before keep their URLs.
 */
export function tagSlug(raw: string): string {
  return (
    raw
      .normalize("NFKC")
      .toLowerCase()
      // "İ" lower-cases to "i" and a combining dot: one "i", so "İstanbul" and "istanbul" are one tag.
      .replace(/i\u0307/g, "i")
      .replace(/['’\p{Cf}]/gu, "")
      .split(/[^\p{L}\p{M}\p{N}]+/u)
      .map((word) => word.replace(/^\p{M}+/u, ""))
      .filter(Boolean)
      .join("-")
      .normalize("NFC")
  );
}

/**
 * A tag as its writer spelled it, tidied for showing: composed (NFC), any run of spaces one space, a
 * leading "#" (how a tag is typed, not part of it) and control or direction-override characters gone, and
 * no comma (the separator of `blogs.tags`). "  #Web   Performance " -> "Web Performance".
 */
export function tagName(raw: string): string {
  return (
    raw
      .normalize("NFC")
      .replace(/,/g, " ")
      .replace(/\s+/gu, " ")
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f\u200b\u202a-\u202e\u2066-\u2069\ufeff]/gu, "")
      .trim()
      .replace(/^[#＃]+\s*/u, "")
  );
}

/** A tag's page: /tags/{slug}, percent-encoded ("/tags/caf%C3%A9"). Takes any spelling of the tag. */
export function tagPath(tag: string): string {
  return `/tags/${encodeURIComponent(tagSlug(tag))}`;
}
