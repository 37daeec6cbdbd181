import { htmlToMarkdown } from "#worker/services/import/html.ts";
import { htmlAsText } from "#worker/services/import/text.ts";
import type { ImportedPost, ParsedImport } from "#worker/services/import/types.ts";
import { DomainError } from "#worker/services/shared/errors.ts";

/** What a parser knows of a post without converting its body: all of it but the Markdown. */
export type PostMeta = Omit<ImportedPost, "markdown" | "description"> & { description?: string };
/** What converting the body gives: the Markdown, and anything read from the converted body (a cover, a status). */
export type PostBody = Pick<ImportedPost, "markdown"> & Partial<ImportedPost>;

const isNesting = (err: unknown) => err instanceof DomainError && err.code === "import-too-deep";

/**
 * Builds one post's body in isolation. The post's metadata (title, date, status, tags, author, cover,
 * comments) is read before, outside this guard; only the body's conversion is guarded. A converter that
 * throws on one post's content (a DOM refusing a name, a recursion too deep for its shape, markup nested
 * past the cap) costs that post its formatting, never the import: the post keeps everything else and its
 * body comes in as plain text, with a warning naming what happened (the preview and the report list it).
 * Other refusals (DomainError) pass; a file whose posts are mostly too deep is refused whole (settleNesting).
 */
export function guardPost(out: ParsedImport, meta: PostMeta, raw: string, body: () => PostBody): void {
  try {
    const built = body();
    out.posts.push({ ...meta, description: meta.description ?? "", ...built });
  } catch (err) {
    if (err instanceof DomainError && !isNesting(err)) throw err;
    if (isNesting(err)) out.deepPosts = { count: (out.deepPosts?.count ?? 0) + 1, error: err as Error };
    const why = isNesting(err)
      ? "it nests deeper than any real export does"
      : err instanceof Error
        ? err.message.split("\n")[0]!.slice(0, 200)
        : String(err).slice(0, 200);
    const text = htmlAsText(raw);
    out.posts.push({
      ...meta,
      markdown: text,
      // A members' post's text is not a preview: without its own description its title stands in.
      description:
        meta.description ||
        (meta.visibility && meta.visibility !== "public" ? "" : text.replace(/\s+/g, " ").slice(0, 300)),
      warnings: [...(meta.warnings ?? []), `its content could not be converted (${why}): imported as plain text`],
    });
  }
}

/**
 * A whole file of deep posts is an attack, not an export with one odd post: when more than half of its
 * posts nested past the cap, the file is refused (a 400) as before, with nothing written.
 */
export function settleNesting(parsed: ParsedImport): ParsedImport {
  const deep = parsed.deepPosts;
  if (deep && deep.count * 2 > parsed.posts.length) throw deep.error;
  return parsed;
}

/** Some HTML (a comment) as Markdown, or as plain text when it cannot be converted: never the post's loss. */
export function markdownOrText(html: string): string {
  try {
    return htmlToMarkdown(html);
  } catch (err) {
    if (err instanceof DomainError && !isNesting(err)) throw err;
    return htmlAsText(html);
  }
}
