import { shareableTags } from "#worker/cache/policy.ts";

/**
 * The security headers, from one place. Every answer gets the transport and sniffing rules; HTML pages
 * get a strict Content-Security-Policy, and /api answers a CSP that allows nothing at all.
 *
 * A page's scripts (docs/decisions/035): each render gets a fresh nonce, which the framework puts on
 * the inline scripts it writes itself (Remix's <Scripts>, <ScrollRestoration>, the streamed data, React's
 * own, the theme script). A private page (personal, `no-store`) allows exactly that nonce. A page the
 * edge cache shares cannot carry a fresh nonce per reader, so its CSP lists the hashes of the inline
 * scripts that carry this render's nonce, and nothing else: a script that reached the output any other
 * way (an injection) carries no nonce, gets no hash, and does not run.
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

/** A page's CSP; `scriptSources` are the inline scripts it allows: `sha256-...` hashes or one `nonce-...`. */
export function pageCsp(scriptSources: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptSources.map((h) => `'${h}'`).join(" ")}`.trim(),
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

const nonces = new WeakMap<Request, string>();

/** A fresh nonce for the render of `request` (16 random bytes, base64). */
export function issueNonce(request: Request): string {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  nonces.set(request, nonce);
  return nonce;
}

/** The nonce issued for this request's render (the Remix load context reads it), if any. */
export function nonceOf(request: Request): string | undefined {
  return nonces.get(request);
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * The sha256 sources of the inline scripts in `html` that carry `nonce` (scripts with a src are covered
 * by 'self'). Without a nonce nothing is trusted: no script is listed.
 */
export async function trustedScriptHashes(html: string, nonce: string | undefined): Promise<string[]> {
  if (!nonce) return [];
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    if (!hasNonce(match[1]!, nonce)) continue;
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(match[2]));
    hashes.add(`sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`);
  }
  return [...hashes];
}

function hasNonce(attributes: string, nonce: string): boolean {
  for (const m of attributes.matchAll(/\snonce=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
    if ((m[1] ?? m[2] ?? m[3]) === nonce) return true;
  }
  return false;
}

/**
 * Renders `request` with a fresh nonce and sets the security headers of the answer. HTML is read whole
 * (pages are small) so a shared page's CSP can list its trusted scripts' hashes; an answer that set its
 * own CSP (the Google popup page, with its own nonce) keeps it.
 */
export async function withSecurityHeaders(
  request: Request,
  render: (request: Request) => Promise<Response>,
): Promise<Response> {
  const nonce = issueNonce(request);
  const response = await render(request);
  const path = new URL(request.url).pathname;
  const type = response.headers.get("Content-Type") ?? "";
  let out: Response;
  if (/^text\/html/i.test(type) && !response.headers.has("Content-Security-Policy")) {
    const html = await response.text();
    out = new Response(html, response);
    // The same question the cache policy asks: a shared copy gets hashes, a personal page its nonce.
    const shared = shareableTags(request, response) !== null;
    const sources = shared ? await trustedScriptHashes(html, nonce) : [`nonce-${nonce}`];
    out.headers.set("Content-Security-Policy", pageCsp(sources));
    out.headers.set("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    out.headers.set("X-Frame-Options", "DENY");
  } else {
    out = new Response(response.body, response);
    if (path.startsWith("/api/") || path === "/api") out.headers.set("Content-Security-Policy", API_CSP);
  }
  // A page whose URL carries a secret (a reset or verification token, Google's code) says
  // no-referrer or same-origin itself; that stricter rule stays.
  const own = response.headers.get("Referrer-Policy");
  const stricter = own === "no-referrer" || own === "same-origin" ? own : null;
  for (const [name, value] of Object.entries(EVERY_ANSWER)) out.headers.set(name, value);
  if (stricter) out.headers.set("Referrer-Policy", stricter);
  return out;
}
