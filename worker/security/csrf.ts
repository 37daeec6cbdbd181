import { escapeHtml } from "#worker/content/escape.ts";

/**
 * Cross-site request refusal, before any route sees the request: a state-changing request (anything
 * but GET, HEAD, OPTIONS) from a browser on another site is refused with 403. The browser tells us
 * with Origin, or without it with Sec-Fetch-Site. A REST client that authenticates with a Bearer token
 * and sends no cookie is not riding on anyone's session, so it stays allowed from anywhere.
 */
export function isCrossSiteWrite(request: Request): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return false;
  if (/^Bearer\s/i.test(request.headers.get("Authorization") ?? "") && !request.headers.has("Cookie")) return false;
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== new URL(request.url).origin;
  const site = request.headers.get("Sec-Fetch-Site");
  return site !== null && site !== "same-origin" && site !== "none";
}

export const CROSS_SITE_MESSAGE = "This request came from another site, so it was refused.";

export function crossSiteRefusal(request: Request): Response {
  if (new URL(request.url).pathname.startsWith("/api/")) {
    return Response.json({ error: { code: "cross-site-request", message: CROSS_SITE_MESSAGE } }, { status: 403 });
  }
  return new Response(errorPage(403, "Request refused", CROSS_SITE_MESSAGE), {
    status: 403,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

/** A small standalone error page for answers given before Remix runs (its styles are inline). */
export function errorPage(status: number, title: string, text: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:6rem auto;padding:0 1rem;text-align:center;color:#111827"><p style="font-size:3.5rem;font-weight:800;color:#4f46e5;margin:0">${status}</p><h1>${escapeHtml(title)}</h1><p style="color:#4b5563">${escapeHtml(text)}</p><p><a href="/" style="color:#4f46e5">Go home</a></p></body></html>`;
}
