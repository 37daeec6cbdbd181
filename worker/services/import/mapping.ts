import { CATEGORIES, type Category } from "#worker/services/categories.ts";
import { MAX_TAGS, normalizeTag, TAG_MAX } from "#worker/services/blogs/tags.ts";
import { MARKDOWN_IMAGE } from "#worker/services/import/html.ts";
import type { ImportedPost } from "#worker/services/import/types.ts";

/** The first source category that names one of the ten (or that the admin mapped), else the fallback. */
export function categoryFor(names: string[], map: Record<string, string>, fallback: Category): Category {
  for (const name of names) {
    const direct = CATEGORIES.find((c) => c.toLowerCase() === name.trim().toLowerCase());
    if (direct) return direct;
    const mapped = map[name];
    const chosen = CATEGORIES.find((c) => c === mapped);
    if (chosen) return chosen;
  }
  return fallback;
}

/** Source names that say nothing about a post (WordPress's default category). */
const MEANINGLESS = new Set(["uncategorized", "uncategorised"]);

/**
 * A post's tags here from its source's tags and categories (WordPress tags and
 * categories, Ghost tags, Medium's): each in this site's one spelling (normalizeTag), without the
 * category the post was filed under, de-duplicated, the first MAX_TAGS kept and the rest reported (and
 * those with nothing a tag here can spell).
 */
export function importedTags(post: Pick<ImportedPost, "tags" | "categories">, category: string) {
  const skip = new Set([...MEANINGLESS, normalizeTag(category)]);
  const tags: string[] = [];
  const dropped: string[] = [];
  for (const name of [...post.tags, ...post.categories]) {
    const tag = normalizeTag(name);
    // A name with no letter this site's tags spell (Chinese, emoji) is reported, never lost silently.
    if (!tag && name.trim() && !dropped.includes(name)) dropped.push(name);
    if (!tag || skip.has(tag) || tags.includes(tag) || dropped.includes(name)) continue;
    if (tag.length > TAG_MAX || tags.length >= MAX_TAGS) dropped.push(name);
    else tags.push(tag);
  }
  return { tags, dropped };
}

/** The Markdown with each image source that was copied (or replaced by the placeholder) pointing at its copy. */
export function withImageUrls(markdown: string, urls: Map<string, string>): string {
  return markdown.replace(
    MARKDOWN_IMAGE,
    (all, alt: string, inAngles: string | undefined, bare: string | undefined, title: string) => {
      const src = inAngles ?? bare!;
      return urls.has(src) ? `![${alt}](${urls.get(src)}${title})` : all;
    },
  );
}
