import { eq, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { tagName, tagSlug } from "#worker/services/blogs/slug.ts";

/**
 * Free tags beside the category: up to MAX_TAGS per post, each kept as its writer spelled it ("Web
 * Performance", "café", "数据库": slug.ts tagName) and known by its slug ("web-performance": slug.ts
 * tagSlug), the tag's one identity in URLs (/tags/{slug}), in search (?tag=, #tag) and in blog_tags. Two
 * spellings with one slug ("Web Performance", "web  performance") are one tag. The one rule for the
 * editor, the REST API and every importer (decision 033).
 */
export const MAX_TAGS = LIMITS.tags;
export const TAG_MAX = LIMITS.tag;

/**
 * What a tag looks like in a URL path as tagPath writes it: its slug, percent-encoded ("caf%C3%A9"). The
 * cache policy's allow-list reads it: another spelling of the path is a redirect, never a shared copy.
 */
const ENCODED_WORD = "(?:[a-z0-9]|%[0-9A-F]{2})+";
export const TAG_PATTERN = `${ENCODED_WORD}(?:-${ENCODED_WORD})*`;

export const TAG_TEXTS = {
  tooMany: `At most ${MAX_TAGS} tags.`,
  tooLong: `A tag may be at most ${TAG_MAX} characters.`,
  invalid: "Each tag needs a letter or a digit (in any alphabet).",
} as const;

/** Characters as a reader counts them: code points, so "数据库" is 3 and an emoji 1. */
const characters = (text: string) => [...text].length;

/** A typed tag read: its spelling and slug, or why it cannot be one. */
export type TagRead = { ok: true; name: string; slug: string } | { ok: false; reason: "invalid" | "tooLong" };

/**
 * One tag as typed ("#Web  Performance", "Crème") as its spelling ("Web Performance") and slug
 * ("web-performance"). The slug is made from the spelling, so tagSlug(name) is always the slug stored
 * beside it, wherever a page recomputes it (the tag links).
 */
export function readTag(raw: string): TagRead {
  const name = tagName(raw);
  const slug = tagSlug(name);
  if (!slug) return { ok: false, reason: "invalid" };
  if (characters(name) > TAG_MAX || characters(slug) > TAG_MAX) return { ok: false, reason: "tooLong" };
  return { ok: true, name, slug };
}

/**
 * The slug of a tag given in a URL or a query (`/tags/{tag}`, `?tag=`, `#tag`), whatever its spelling
 * ("Web Performance", "café", "caf%C3%A9" decoded); null when it cannot be a tag.
 */
export function tagKey(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const slug = tagSlug(value);
  return slug && characters(slug) <= TAG_MAX ? slug : null;
}

/**
 * The tags field of a write: a comma-separated text (the forms: "edge, #Web Performance") or an array (the
 * REST API). Each kept as written (tidied: readTag), de-duplicated by slug (the first spelling wins); blank
 * means no tags. Optional: an update without it keeps them.
 */
export const tagsField = z.preprocess((value, ctx): unknown => {
  if (value === undefined || value === null) return undefined;
  const parts = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : null;
  if (!parts || parts.some((p) => typeof p !== "string")) {
    ctx.addIssue({ code: "custom", message: "Tags must be text separated by commas." });
    return value;
  }
  const tags: string[] = [];
  const slugs = new Set<string>();
  for (const part of parts as string[]) {
    if (part.trim() === "") continue;
    const tag = readTag(part);
    if (!tag.ok) {
      ctx.addIssue({ code: "custom", message: TAG_TEXTS[tag.reason] });
      return value;
    }
    if (slugs.has(tag.slug)) continue;
    slugs.add(tag.slug);
    tags.push(tag.name);
  }
  if (tags.length > MAX_TAGS) {
    ctx.addIssue({ code: "custom", message: TAG_TEXTS.tooMany });
    return value;
  }
  return tags;
}, z.array(z.string()).optional());

/** blogs.tags ("Web Performance,café") as a list of the writer's spellings. */
export function tagsOf(column: string): string[] {
  return column ? column.split(",").filter(Boolean) : [];
}

/** The posts carrying the tag `slug` (a value, or a column of an outer query): a range of blog_tags' primary key. */
export function taggedWith(slug: string | SQL): SQL {
  return sql`${schema.blogs.id} in (select ${schema.blogTags.blogId} from ${schema.blogTags} where ${schema.blogTags.tag} = ${slug})`;
}

/** Matches nothing (an unknown or malformed tag in a URL is an empty page, not an error). */
export const NOTHING = sql`0`;

/**
 * The statements that make blog_tags say `tags` (the post's spellings) for a post, for the same D1 batch
 * as the post's write: one row per slug, with the spelling beside it. Triggers keep each tag's totals
 * (blog_counts, scope 'tag': migration 0025).
 */
export function tagWrites(db: Db, blogId: string, tags: string[], replace: boolean): BatchItem<"sqlite">[] {
  const rows = new Map<string, { tag: string; blogId: string; name: string }>();
  for (const name of tags) {
    const tag = tagSlug(name);
    if (tag && !rows.has(tag)) rows.set(tag, { tag, blogId, name });
  }
  const writes: BatchItem<"sqlite">[] = [];
  if (replace) writes.push(db.delete(schema.blogTags).where(eq(schema.blogTags.blogId, blogId)));
  if (rows.size) writes.push(db.insert(schema.blogTags).values([...rows.values()]));
  return writes;
}

/**
 * Tags written in a search box: "#edge cache" searches the tag edge for the words "cache". Returns the
 * first #tag (its slug) and the rest of the text.
 */
export function tagInQuery(q: unknown): { tag?: string; q?: string } {
  if (typeof q !== "string") return {};
  const match = /(?:^|\s)#([^\s#]+)/u.exec(q);
  if (!match) return { q };
  const rest = (q.slice(0, match.index) + " " + q.slice(match.index + match[0].length)).trim();
  return { tag: tagSlug(match[1]!), q: rest || undefined };
}
