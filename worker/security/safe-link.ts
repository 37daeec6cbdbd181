/**
 * The one rule for a link another server chose (a remote actor's profile, a remote post's page) that
 * our pages or API answers show: an absolute http(s) URL, no whitespace or control characters, or
 * nothing. Never javascript:, data:, vbscript: or a relative path. Applied where such URLs are stored
 * and again where they are shown, so an older stored value cannot slip through either.
 */
export function safeLink(url: string | null | undefined): string | null {
  if (typeof url !== "string" || url.length > 2048) return null;
  if (!/^https?:\/\/[^\s/]/i.test(url) || [...url].some((c) => c.charCodeAt(0) <= 0x20 || c === "\u007f")) {
    return null;
  }
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}
