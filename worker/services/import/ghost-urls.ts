import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { tagPath, tagSlug } from "#worker/services/blogs/slug.ts";
import type { ParsedImport } from "#worker/services/import/types.ts";

/** Ghost writes its own address as this placeholder in exported content. */
export const GHOST_URL = "__GHOST_URL__";
export const GHOST_IMAGE_NO_ADDRESS = "a Ghost image, and the export does not say which site __GHOST_URL__ was";

/**
 * Where a `__GHOST_URL__{path}` goes on this site: a link to a post of the same export goes to that
 * post here (`/blogs/{id}`, which leads to its readable link), a tag page to `/tags/{slug}`; anything else
 * to the Ghost site when the export names it, else (links only) to the same path on this site. An image
 * with no known address stays as it is: the import reports it and shows the placeholder.
 */
function ghostTarget(path: string, image: boolean, origin: string, idForSlug: (slug: string) => string | undefined) {
  const clean = path || "/";
  if (!image) {
    const post = /^\/([a-z0-9][a-z0-9-]*)\/?(#[^\s]*)?$/i.exec(clean);
    const id = post ? idForSlug(post[1]!.toLowerCase()) : undefined;
    if (id) return `/blogs/${id}${post![2] ?? ""}`;
    const tag = /^\/tag\/([^/?#\s]+)\/?$/.exec(clean);
    const name = tag ? decoded(tag[1]!) : "";
    if (tagSlug(name)) return tagPath(name);
  }
  if (origin) return `${origin}${clean}`;
  return image ? null : clean;
}

/** A URL's segment decoded, or as it is when it is not valid percent-encoding. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function resolveGhostUrls(
  markdown: string,
  origin: string,
  idForSlug: (slug: string) => string | undefined,
): string {
  return markdown.replace(
    /(!\[[^\]]*\]\(\s*<?|\[[^\]]*\]\(\s*<?)?__GHOST_URL__([^\s)>"'\]]*)/g,
    (all, open: string | undefined, path: string) => {
      const target = ghostTarget(path, open?.startsWith("!") ?? false, origin, idForSlug);
      return target === null ? all : `${open ?? ""}${target}`;
    },
  );
}

/**
 * Gives each post of a parsed export the id it will have here, and (for Ghost) rewrites `__GHOST_URL__`
 * in its Markdown and cover: links between the export's own posts point at their new addresses (or, for
 * a post imported before, at the one the ledger names).
 */
export async function assignIdsAndGhostUrls(db: Db, parsed: ParsedImport, newId: () => string, importer: string) {
  const ids = parsed.posts.map(() => newId());
  if (parsed.platform !== "ghost") return ids;
  const bySlug = new Map<string, number>();
  parsed.posts.forEach((p, i) => p.slug && bySlug.set(p.slug.toLowerCase(), i));
  const known = new Map<string, string>();
  const keys = parsed.posts.map((p) => p.sourceKey);
  for (let i = 0; i < keys.length; i += 90) {
    const rows = await db
      .select()
      .from(schema.importedSources)
      .where(
        and(
          eq(schema.importedSources.importer, importer),
          inArray(schema.importedSources.sourceKey, keys.slice(i, i + 90)),
        ),
      );
    for (const row of rows) known.set(row.sourceKey, row.targetId);
  }
  const idForSlug = (slug: string) => {
    const i = bySlug.get(slug);
    return i === undefined ? undefined : (known.get(parsed.posts[i]!.sourceKey) ?? ids[i]);
  };
  const origin = parsed.origin ?? "";
  for (const post of parsed.posts) {
    post.markdown = resolveGhostUrls(post.markdown, origin, idForSlug);
    if (post.cover?.startsWith(GHOST_URL) && origin) post.cover = origin + post.cover.slice(GHOST_URL.length);
  }
  return ids;
}
