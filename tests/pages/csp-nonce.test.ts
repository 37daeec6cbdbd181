import { describe, expect, it } from "vitest";
import { nonceOf, withSecurityHeaders } from "#worker/security/headers.ts";
import { makeUser, sessionFor } from "../support/factories";
import { call } from "../support/http";

const SITE = "https://blog.test";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`;
}

const inlineScripts = (html: string) =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({
    attrs: m[1]!,
    body: m[2]!,
  }));

const INJECTED = "alert(document.cookie)";

/** A page as the framework renders it (its script carries the render's nonce) plus an injected script. */
function pageWithInjection(nonce: string): Response {
  const html =
    `<!DOCTYPE html><html><head><script nonce="${nonce}">window.framework=1</script></head>` +
    `<body><article><script>${INJECTED}</script><p>post</p></article>` +
    `<script nonce="guessed">${INJECTED};1</script></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** The nonce the render received, read back from the script the "framework" wrote. */
const renderedNonce = (html: string) => /nonce="([^"]+)"/.exec(html)![1]!;

describe("CSP: only the framework's own inline scripts run", () => {
  it("a shared page lists the hash of the nonce-carrying script only: an injected <script> gets no hash", async () => {
    const res = await withSecurityHeaders(new Request(`${SITE}/`), async (req) => pageWithInjection(nonceOf(req)!));
    const csp = res.headers.get("Content-Security-Policy")!;
    const html = await res.text();
    expect(csp).toContain(await sha256("window.framework=1"));
    expect(csp).not.toContain(await sha256(INJECTED));
    expect(csp).not.toContain(await sha256(`${INJECTED};1`));
    // A shared copy cannot carry a per-reader nonce: none is allowed, only the hashes.
    expect(csp).not.toContain("nonce-");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(html).toContain(INJECTED);
  });

  it("a private page allows its fresh nonce only (no hashes), and the injected script has no nonce", async () => {
    const request = () => new Request(`${SITE}/dashboard`, { headers: { Cookie: "__Host-session=anything" } });
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await withSecurityHeaders(request(), async (req) => pageWithInjection(nonceOf(req)!));
      const html = await res.text();
      const nonce = renderedNonce(html);
      const csp = res.headers.get("Content-Security-Policy")!;
      expect(csp).toMatch(new RegExp(`script-src 'self' 'nonce-${nonce.replace(/[+/=]/g, "\\$&")}';`));
      expect(csp).not.toContain("sha256-");
      seen.push(nonce);
    }
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[0]!.length).toBeGreaterThanOrEqual(22);
  });

  it("a rendered shared page: every inline script carries the nonce and is hash-listed; the copy's CSP names no nonce", async () => {
    const res = await call("/allBlogs");
    expect(res.headers.get("Cache-Control")).toMatch(/s-maxage/);
    const csp = res.headers.get("Content-Security-Policy")!;
    const html = await res.text();
    const scripts = inlineScripts(html);
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const s of scripts) {
      expect(s.attrs).toMatch(/\snonce="[^"]+"/);
      expect(csp).toContain(await sha256(s.body));
    }
    expect(csp).not.toContain("nonce-");
    expect(csp.match(/'sha256-/g)!.length).toBe(new Set(scripts.map((s) => s.body)).size);
  });

  it("a rendered private page: its CSP names the nonce every inline script carries, fresh per response", async () => {
    const cookie = `__Host-session=${await sessionFor(await makeUser({ name: "Nonce Reader" }))}`;
    const nonces: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await call("/dashboard", { headers: { Cookie: cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      const csp = res.headers.get("Content-Security-Policy")!;
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
      const scripts = inlineScripts(await res.text());
      expect(scripts.length).toBeGreaterThanOrEqual(3);
      for (const s of scripts) expect(s.attrs).toContain(`nonce="${nonce}"`);
      expect(csp).not.toContain("sha256-");
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });
});
