import { MARKDOWN_IMAGE } from "#worker/services/import/html.ts";
import type { ParsedImport } from "#worker/services/import/types.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";

const SOURCE_URL_ERROR = "Enter the old site's address as a web address, like https://yourblog.ghost.io.";

/** The old site's address as an origin ("https://host[:port]"), or null when none was given. */
export function sourceOrigin(value: unknown): string | null {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return null;
  const text = typeof value === "string" ? value.trim() : "";
  let url: URL | null = null;
  try {
    url = text.length <= 300 ? new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname.includes("."))
    throw new ValidationError({ source_url: SOURCE_URL_ERROR }, SOURCE_URL_ERROR, "import-source-url");
  return url.origin;
}

/**
 * An image address as the old site's pages meant it: `//host/x` on the old site's scheme (https when it is
 * not known), `/wp-content/x` on the old site's origin when the export or the uploader names it.
 */
export function absoluteImageUrl(src: string, origin: string | undefined): string {
  if (src.startsWith("//")) return `${origin?.startsWith("http:") ? "http:" : "https:"}${src}`;
  if (origin && src.startsWith("/")) return `${origin}${src}`;
  return src;
}

/**
 * Every image of the parsed posts (and each cover) with a relative address made absolute (absoluteImageUrl):
 * otherwise `/wp-content/…` could not be fetched, and an old site's `/images/…` would pass for one of ours.
 * This site's own export is left alone: its `/images/…` are this site's.
 */
export function resolveRelativeImages(parsed: ParsedImport): void {
  if (parsed.platform === "edge-blog") return;
  const origin = parsed.origin;
  for (const post of parsed.posts) {
    post.markdown = post.markdown.replace(
      MARKDOWN_IMAGE,
      (all, alt: string, inAngles: string | undefined, bare: string | undefined, title: string) => {
        const src = inAngles ?? bare!;
        const url = absoluteImageUrl(src, origin);
        return url === src ? all : `![${alt}](${inAngles ? `<${url}>` : url}${title})`;
      },
    );
    if (post.cover) post.cover = absoluteImageUrl(post.cover, origin);
  }
}
