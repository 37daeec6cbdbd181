import type { ImportedPost, ParsedImport } from "#worker/services/import/types.ts";
import { DomainError } from "#worker/services/shared/errors.ts";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Some HTML as paragraphs of text, without any DOM (the DOM is what failed): tags out, entities decoded. */
export function htmlAsText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|h[1-6]|li|pre|blockquote|tr|figure)>/gi, "\n\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
      if (e[0] !== "#") return ENTITIES[e.toLowerCase()] ?? all;
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : all;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Builds one post in isolation: a converter that throws on one post's content (a DOM refusing a name,
 * a recursion too deep for its shape) costs that post its formatting, never the import. The post then
 * comes in as plain text, as a draft for its writer to look over, with a warning naming what happened
 * (the preview and the report list it). Refusals of the whole file (DomainError: nesting, entities) pass.
 */
export function guardPost(
  out: ParsedImport,
  fallback: { sourceKey: string; title: string; date: string; raw: string },
  build: () => ImportedPost | null,
): void {
  try {
    const post = build();
    if (post) out.posts.push(post);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    const why = err instanceof Error ? err.message.split("\n")[0]!.slice(0, 200) : String(err).slice(0, 200);
    const text = htmlAsText(fallback.raw);
    out.posts.push({
      sourceKey: fallback.sourceKey,
      title: fallback.title,
      markdown: text,
      description: text.replace(/\s+/g, " ").slice(0, 300),
      status: "draft",
      date: fallback.date,
      categories: [],
      tags: [],
      author: null,
      cover: null,
      comments: [],
      warnings: [`its content could not be converted (${why}): imported as plain text, as a draft`],
    });
  }
}
