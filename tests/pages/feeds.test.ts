import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createFeedService } from "#worker/services/feeds.ts";
import { countingD1 } from "../support/d1-counter";
import { clearContent, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";
import { testKernel } from "../support/kernel";

const TRICKY = `Cats & Dogs <script>alert("x")</script> 'quoted'\u0001`;

/**
 * A small well-formedness check: tags nest and close in order, and text carries no raw `<` or a `&`
 * that does not start an entity. (workerd has no XML parser; this is enough for our flat feeds.)
 */
function assertWellFormedXml(xml: string) {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const body = xml.replace(/^<\?xml[^>]*\?>/, "");
  const stack: string[] = [];
  const tokens = body.split(/(<[^>]*>)/);
  for (const token of tokens) {
    if (token.startsWith("<")) {
      const closing = token.match(/^<\/([\w:]+)\s*>$/);
      const opening = token.match(/^<([\w:]+)(\s+[\w:]+="[^"<]*")*\s*(\/?)>$/);
      if (closing) expect(stack.pop()).toBe(closing[1]);
      else if (opening) {
        if (!opening[3]) stack.push(opening[1]!);
      } else throw new Error(`malformed tag: ${token}`);
    } else {
      expect(token).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos);)/);
      // eslint-disable-next-line no-control-regex -- the test looks for control characters
      expect(token).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    }
  }
  expect(stack).toEqual([]);
}

describe("feeds", () => {
  const ids: string[] = [];

  beforeAll(async () => {
    await clearContent();
    const writer = await makeUser({ name: "Feed & Co" });
    for (let day = 1; day <= 22; day++) {
      const blog = await makeBlog(writer, {
        title: day === 22 ? TRICKY : `Feed post ${day}`,
        dateTime: new Date(Date.UTC(2031, 0, day, 8)).toISOString(),
      });
      ids.push(blog.id);
    }
  });

  it("serves /rss.xml as well-formed RSS 2.0 with the latest 20 posts, escaped, linking to /blogs/{id}", async () => {
    const res = await call("/rss.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await res.text();
    assertWellFormedXml(xml);
    expect(xml).toContain('<rss version="2.0"');
    expect(xml.match(/<item>/g)).toHaveLength(20);
    expect(xml).toContain(
      "<title>Cats &amp; Dogs &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &apos;quoted&apos;</title>",
    );
    expect(xml).toContain("<dc:creator>Feed &amp; Co</dc:creator>");
    const links = [...xml.matchAll(/<item>\s*<title>[^<]*<\/title>\s*<link>([^<]+)<\/link>/g)].map((m) => m[1]);
    // The readable links: /blogs/{id}/{slug}.
    expect(links.map((link) => link!.replace(/\/[a-z0-9-]+$/, ""))).toEqual(
      ids
        .slice(2)
        .reverse()
        .map((id) => `https://blog.test/blogs/${id}`),
    );
    expect(xml).toContain(`<pubDate>${new Date(Date.UTC(2031, 0, 22, 8)).toUTCString()}</pubDate>`);
    expect(xml).not.toContain("Feed post 2<");
  });

  it("serves /sitemap.xml as an index of its files: the public pages, and the posts with their last change", async () => {
    const res = await call("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const index = await res.text();
    assertWellFormedXml(index);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(index.match(/<loc>[^<]+<\/loc>/g)).toEqual([
      "<loc>https://blog.test/sitemaps/pages.xml</loc>",
      "<loc>https://blog.test/sitemaps/posts-1.xml</loc>",
    ]);

    const pages = await (await call("/sitemaps/pages.xml")).text();
    assertWellFormedXml(pages);
    for (const path of ["/", "/about", "/allBlogs", "/tags", "/contact", "/login", "/register", "/privacy", "/terms"]) {
      expect(pages).toContain(`<url><loc>https://blog.test${path}</loc></url>`);
    }
    expect(pages.match(/<url>/g)).toHaveLength(9);

    const posts = await call("/sitemaps/posts-1.xml");
    expect(posts.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await posts.text();
    assertWellFormedXml(xml);
    for (const id of ids)
      expect(xml).toMatch(
        new RegExp(
          `<loc>https://blog.test/blogs/${id}/[a-z0-9-]+</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z</lastmod>`,
        ),
      );
    expect(xml.match(/<url>/g)).toHaveLength(ids.length);
    expect(xml).not.toContain("/dashboard");
    // Past the last file, and any other name: 404.
    for (const path of ["/sitemaps/posts-2.xml", "/sitemaps/posts-0.xml", "/sitemaps/other.xml"]) {
      expect((await call(path)).status, path).toBe(404);
    }
  });

  it("serves /robots.txt keeping crawlers out of private areas and pointing at the sitemap", async () => {
    const res = await call("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    expect(text).toContain("User-agent: *\nAllow: /\n");
    for (const path of ["/dashboard", "/api", "/Profile", "/editProfile"])
      expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).toContain("Sitemap: https://blog.test/sitemap.xml");
  });

  it("reads each feed with one query", async () => {
    for (const read of ["latestForRss", "postsForSitemap"] as const) {
      const counter = countingD1(env.DB);
      await createFeedService(testKernel(counter.db))[read]();
      expect(counter.trips(), read).toBe(1);
    }
  });
});
