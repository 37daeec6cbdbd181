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
