import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";

/**
 * Free tags beside the category: up to MAX_TAGS per post, each normalised to lower-case
 * ASCII words joined by hyphens ("#Edge Cache" -> "edge-cache"), so a tag has one spelling in URLs
 * (/tags/{tag}), in search (?tag=, #tag) and in D1. Import (a later issue) maps other platforms' tags here.
 */
export const MAX_TAGS = LIMITS.tags;
export const TAG_MAX = LIMITS.tag;
/** What a tag looks like in a URL (the cache policy's allow-list reads it too). */
export const TAG_PATTERN = "[a-z0-9]+(?:-[a-z0-9]+)*";
const TAG = new RegExp(`^${TAG_PATTERN}$`);

export const TAG_TEXTS = {
  tooMany: `At most ${MAX_TAGS} tags.`,
  tooLong: `A tag may be at most ${TAG_MAX} characters.`,
  invalid: "Tags may use letters, digits and hyphens.",
} as const;

/** One tag as typed ("#Edge Cache", "Crème") in its one spelling ("edge-cache", "creme"); "" when nothing is left. */
export function normalizeTag(raw: string): string {
  return raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/^#+/, "")
    .replace(/['’]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join("-");
}

/** Whether `value` is a tag in its one spelling (a URL's /tags/{tag}, ?tag=). */
export function isTag(value: unknown): value is string {
  return typeof value === "string" && value.length <= TAG_MAX && TAG.test(value);
}

/**
 * The tags field of a write: a comma-separated text (the forms: "edge, #cloudflare") or an array (the
 * REST API). Normalised and de-duplicated; blank means no tags. Optional: an update without it keeps them.
 */
export const tagsField = z.preprocess((value, ctx): unknown => {
  if (value === undefined || value === null) return undefined;
  const parts = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : null;
  if (!parts || parts.some((p) => typeof p !== "string")) {
    ctx.addIssue({ code: "custom", message: "Tags must be text separated by commas." });
    return value;
  }
  const tags: string[] = [];
  for (const part of parts as string[]) {
    if (part.trim() === "") continue;
    const tag = normalizeTag(part);
    if (!tag) {
      ctx.addIssue({ code: "custom", message: TAG_TEXTS.invalid });
      return value;
    }
    if (tag.length > TAG_MAX) {
      ctx.addIssue({ code: "custom", message: TAG_TEXTS.tooLong });
      return value;
    }
    if (!tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > MAX_TAGS) {
    ctx.addIssue({ code: "custom", message: TAG_TEXTS.tooMany });
    return value;
  }
  return tags;
}, z.array(z.string()).optional());

/** blogs.tags ("a,b") as a list. */
export function tagsOf(column: string): string[] {
  return column ? column.split(",").filter(Boolean) : [];
}

/** The posts carrying `tag`: a range of blog_tags' primary key. */
export function taggedWith(db: Db, tag: string): SQL {
  return inArray(
    schema.blogs.id,
    db.select({ id: schema.blogTags.blogId }).from(schema.blogTags).where(eq(schema.blogTags.tag, tag)),
  );
}

/** Matches nothing (an unknown or malformed tag in a URL is an empty page, not an error). */
export const NOTHING = sql`0`;

/** The statements that make blog_tags say `tags` for a post, for the same D1 batch as the post's write. */
export function tagWrites(db: Db, blogId: string, tags: string[], replace: boolean): BatchItem<"sqlite">[] {
  const writes: BatchItem<"sqlite">[] = [];
  if (replace) writes.push(db.delete(schema.blogTags).where(eq(schema.blogTags.blogId, blogId)));
  if (tags.length) writes.push(db.insert(schema.blogTags).values(tags.map((tag) => ({ tag, blogId }))));
  return writes;
}

/**
 * Tags written in a search box: "#edge cache" searches the tag edge for the words "cache". Returns the
 * first #tag and the rest of the text.
 */
export function tagInQuery(q: unknown): { tag?: string; q?: string } {
  if (typeof q !== "string") return {};
  const match = /(?:^|\s)#([^\s#]+)/u.exec(q);
  if (!match) return { q };
  const rest = (q.slice(0, match.index) + " " + q.slice(match.index + match[0].length)).trim();
  return { tag: normalizeTag(match[1]!), q: rest || undefined };
}
