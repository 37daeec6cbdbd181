/**
 * The security headers, from one place. Every answer gets the transport and sniffing rules; HTML pages
 * get a strict Content-Security-Policy whose script allowance is the hashes of the page's own inline
 * scripts (computed from the rendered bytes), and /api answers a CSP that allows nothing at all.
 *
 * Hashes rather than a per-request nonce: anonymous pages are served to many readers from the edge
 * cache, and a nonce repeated across readers is no nonce. A hash stays true for the very bytes it
 * was computed from, cached or not, and allows exactly those scripts (docs/decisions/010).
 */
export const EVERY_ANSWER: Record<string, string> = {
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy":
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), magnetometer=(), gyroscope=(), accelerometer=(), interest-cohort=()",
};

export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const GOOGLE_AVATARS = "https://lh3.googleusercontent.com";
const GOOGLE_ACCOUNTS = "https://accounts.google.com";

export function pageCsp(scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.map((h) => `'${h}'`).join(" ")}`.trim(),
    // React style attributes and the dialog library's injected styles; no script can ride on these.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${GOOGLE_AVATARS}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self' ${GOOGLE_ACCOUNTS}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The sha256 sources of every inline script in `html` (scripts with a src are covered by 'self'). */
export async function inlineScriptHashes(html: string): Promise<string[]> {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(match[1]));
    hashes.add(`sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`);
  }
  return [...hashes];
}

/**
 * Headers for an answer of the app. HTML is read whole (pages are small) so its CSP can list its
 * scripts' hashes; an answer that set its own CSP (the Google popup page, with its nonce) keeps it.
 */
export async function withSecurityHeaders(request: Request, response: Response): Promise<Response> {
  const path = new URL(request.url).pathname;
  const type = response.headers.get("Content-Type") ?? "";
  let out: Response;
  if (/^text\/html/i.test(type) && !response.headers.has("Content-Security-Policy")) {
    const html = await response.text();
    out = new Response(html, response);
    out.headers.set("Content-Security-Policy", pageCsp(await inlineScriptHashes(html)));
    out.headers.set("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    out.headers.set("X-Frame-Options", "DENY");
  } else {
    out = new Response(response.body, response);
    if (path.startsWith("/api/") || path === "/api") out.headers.set("Content-Security-Policy", API_CSP);
  }
  // A page whose URL carries a secret (a reset or verification token, Google's code) says
  // no-referrer itself; that stricter rule stays.
  const keepNoReferrer = response.headers.get("Referrer-Policy") === "no-referrer";
  for (const [name, value] of Object.entries(EVERY_ANSWER)) out.headers.set(name, value);
  if (keepNoReferrer) out.headers.set("Referrer-Policy", "no-referrer");
  return out;
}
