import { beforeAll, describe, expect, it } from "vitest";
import { clearContent, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";

describe("server-rendered shell", () => {
  beforeAll(async () => {
    await clearContent();
    const author = await makeUser({ name: "Linus" });
    await makeBlog(author, { title: "Rendering at the edge" });
  });

  it("carries its whole stylesheet inline in <head>: no stylesheet request holds the first paint", async () => {
    for (const path of ["/", "/about", "/allBlogs", "/contact", "/login"]) {
      const res = await call(path);
      const html = await res.text();
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head, path).not.toMatch(/<link[^>]+rel="stylesheet"/);
      const css = /<style id="site-css">([\s\S]*?)<\/style>/.exec(head)?.[1] ?? "";
      // Tailwind's utilities the page uses, the dark theme and the slider's rules are all there.
      expect(css.length, path).toBeGreaterThan(20_000);
      expect(css, path).toContain(".bg-brand-600{");
      expect(css, path).toContain(".dark");
      // Search marks keep dark ink on pale amber in the dark theme (light ink on it read 1.01:1).
      expect(css, path).toMatch(/\.dark mark\{[^}]*color:#111827[^}]*background-color:#fef3c6/);
      // The CSP lets an inline <style> apply (styles only; scripts stay hash-listed).
      expect(res.headers.get("Content-Security-Policy"), path).toMatch(/style-src 'self' 'unsafe-inline'/);
    }
  });

  it("renders the home page with the top bar, footer and the latest blogs from D1", async () => {
    const res = await call("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    for (const [href, label] of [
      ["/", "Home"],
      ["/about", "About Us"],
      ["/allBlogs", "All Blogs"],
      ["/contact", "Contact"],
    ]) {
      expect(html).toMatch(new RegExp(`href="${href}"[^>]*>${label}<`));
    }
    expect(html).toMatch(/href="\/login"[^>]*>Sign in</);
    expect(html).toContain("Rendering at the edge");
    // The byline links to the writer's page.
    expect(html).toMatch(/By(?:<!-- -->)? <a [^>]*href="\/writers\/[0-9a-z]+"[^>]*>Linus/);
    expect(html).toContain(`© <!-- -->${new Date().getUTCFullYear()}<!-- --> <!-- -->Test Owner`);
    // The footer's labels lead somewhere.
    for (const [label, href] of [
      ["About us", "/about"],
      ["Contact", "/contact"],
      ["Privacy", "/privacy"],
      ["Terms", "/terms"],
    ])
      expect(html).toMatch(new RegExp(`<a [^>]*href="${href}"[^>]*>${label}</a></li>`));
  });

  it("answers an unknown page with the 404 page inside the layout", async () => {
    const res = await call("/this/page/does-not-exist");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page not found");
    expect(html).toContain('href="/allBlogs"');
  });
});
