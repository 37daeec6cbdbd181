import { CATEGORIES, type Category } from "#worker/services/categories.ts";
import { tagSlug } from "#worker/services/blogs/slug.ts";
import { MAX_TAGS, readTag } from "#worker/services/blogs/tags.ts";
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
 * A post's tags here from its source's tags and categories (WordPress tags and categories, Ghost tags,
 * Medium's): each kept as the source spells it, by the same rule as the editor (readTag: "数据库",
 * "Ελληνικά" and "Web Performance" arrive as they are), without the category the post was filed under,
 * de-duplicated by slug, the first MAX_TAGS kept and the rest reported, with the names no tag can be (no
 * letter or digit in any script: "🚀", "!!!") or too long for one.
 */
export function importedTags(post: Pick<ImportedPost, "tags" | "categories">, category: string) {
  const skip = new Set([...MEANINGLESS, tagSlug(category)]);
  const tags: string[] = [];
  const slugs = new Set<string>();
  const dropped: string[] = [];
  for (const name of [...post.tags, ...post.categories]) {
    if (!name.trim() || dropped.includes(name)) continue;
    const tag = readTag(name);
    if (tag.ok && (skip.has(tag.slug) || slugs.has(tag.slug))) continue;
    if (!tag.ok || tags.length >= MAX_TAGS) {
      dropped.push(name);
      continue;
    }
    slugs.add(tag.slug);
    tags.push(tag.name);
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
