/**
 * The one check for every redirect whose target comes from a request (sign-in, sign-up, sign-out,
 * Google's flow): the target is resolved against the site's origin the way a browser would (dot
 * segments, backslashes, tabs and newlines removed), and accepted only if it stays on that origin
 * with a path that starts with a single `/`. Anything else (`//evil.example`, `/.//evil.example`,
 * `/\evil`, `https://evil.example`, `javascript:`, `@evil`) falls back to `fallback`, so no
 * redirect of ours can leave the site.
 */
export function safeRedirect(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  // eslint-disable-next-line no-control-regex -- browsers drop tabs and newlines inside URLs; refuse them
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  const origin = "https://same-site.invalid";
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin) return fallback;
  const target = url.pathname + url.search + url.hash;
  // After normalisation the path itself must not read as protocol-relative (`/.//evil` -> `//evil`).
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  return target;
}
