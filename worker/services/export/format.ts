/** What both exports (an account's and the whole site's) write the same way. */

/** A value as front matter: JSON strings, numbers and null are valid YAML scalars, so nothing needs escaping by hand. */
export const yaml = (value: string | number | boolean | null) => JSON.stringify(value);

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Our own image URLs point into the zip's images/ folder, so a post's Markdown reads offline. */
export const localImages = (text: string) =>
  text.replace(/\/images\/([0-9a-z][0-9a-z_-]{7,80}\.[a-z]{3,4})/g, "../images/$1");

/** A post file: front matter ("key: <JSON value>" lines) then the Markdown body. */
export function markdownFile(front: [string, string | number | boolean | null][], body: string): string {
  return `${["---", ...front.map(([key, value]) => `${key}: ${yaml(value)}`), "---", ""].join("\n")}${body}\n`;
}

/**
 * The Content-Disposition of a download: a header is bytes, so a name in another script (a site called
 * "咖啡馆") goes as RFC 6266's `filename*` (UTF-8, percent-encoded) beside a plain ASCII stand-in.
 */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return ascii === filename
    ? `attachment; filename="${filename}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
