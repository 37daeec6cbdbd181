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
 * The automatic slug: the title's words under the rule of a chosen slug (isChosenSlug), in any script:
 * compatibility-normalised (NFKC), lower-cased, letters with their combining marks and digits kept, every
 * other run one hyphen, at most SLUG_MAX characters, cut at a word boundary (a longer first word is cut
 * between characters, never inside one). Latin letters lose their accents ("Café" -> "cafe"), so the
 * links of Latin titles are what they were before; other scripts keep theirs (a Devanagari vowel sign or
 * a Thai tone mark is part of the word). A title with no letter or digit at all ("🚀") gets "post". The
 * old "post" of a non-Latin title still finds the post (any slug does: a 301 to this one).
 */
export function slugOf(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/i\u0307/g, "i")
    .replace(/['’\p{Cf}]/gu, "")
    .split(/[^\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}]+/u)
    .map((word) => word.replace(/^\p{M}+/u, ""))
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_MAX) {
      if (!slug) slug = cutWord(word, SLUG_MAX);
      break;
    }
    slug = next;
  }
  return slug.normalize("NFC") || "post";
}

/** The first characters of a word within `max` UTF-16 units: whole code points, no trailing mark cut from its letter. */
function cutWord(word: string, max: number): string {
  let out = "";
  for (const char of word) {
    if (out.length + char.length > max) break;
    out += char;
  }
  return out;
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
 * A tag slug with its accents folded, as search folds them (issue 43): the marks on Latin, Greek and
 * Cyrillic letters dropped ("café" and "cafe", "καλημέρα" and "καλημερα" fold alike), the marks of other
 * scripts kept (a Devanagari vowel sign is a letter's part). For finding a tag by a spelling without accents.
 */
export function tagFold(slug: string): string {
  return slug
    .normalize("NFD")
    .replace(/([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, "$1")
    .normalize("NFC");
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
