/**
 * Where to send someone after signing in, from untrusted input: only a path on this site.
 * `//evil.com`, `/\evil.com` (browsers read `\` as `/`), `https://evil.com`, `javascript:` and
 * anything with control characters fall back to `fallback`, so sign-in can never be an open redirect.
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  const base = "https://same-site.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  return url.pathname + url.search + url.hash;
}
