import { beforeAll, describe, expect, it } from "vitest";
import { makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";
import { postPath } from "#worker/services/blogs/slug.ts";

const get = (path: string) => call(path, { redirect: "manual" });
const tag = `sp${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe("search on the pages", () => {
  let post: { id: string; title: string };
  beforeAll(async () => {
    const author = await makeUser({ name: "Page Writer" });
    post = await makeBlog(author, {
      title: `Tide pools <b>at</b> dusk ${tag}`,
      shortDescription: "Small worlds between the rocks.",
      blogDetails: `Anemones <img src=x onerror=alert(1)> close when the tide ${tag} leaves.`,
      category: "Science",
    });
    await makeBlog(author, { title: `Tide tables explained ${tag}`, category: "Science" });
    await makeBlog(author, { title: `Tide pool draft ${tag}`, category: "Science", status: "draft" });
  });

  it("puts a labelled GET search form to /allBlogs in the top bar of every page", async () => {
    for (const path of ["/", "/about", postPath(post), "/login"]) {
      const html = await (await get(path)).text();
      const form = html.match(/<form[^>]*role="search"[^>]*aria-label="Site"[^>]*>.*?<\/form>/s)?.[0] ?? "";
      expect(form, path).toMatch(/method="get"/);
      expect(form, path).toMatch(/action="\/allBlogs"/);
      expect(form, path).toContain('<label for="site-search" class="sr-only">Search posts</label>');
      expect(form, path).toMatch(/<input[^>]*id="site-search"[^>]*type="search"[^>]*name="q"/);
    }
    // On the results page it shows the words searched, so they can be refined.
    const results = await (await get(`/allBlogs?q=${tag}`)).text();
    expect(results).toMatch(new RegExp(`id="site-search"[^>]*value="${tag}"`));
  });

  it("ranks, highlights and escapes results on /allBlogs?q=, and never lists a draft", async () => {
    const res = await get(`/allBlogs?q=${encodeURIComponent(`${tag} tide`)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("2<!-- --> <!-- -->blogs");
    expect(html).toContain(`<mark>Tide</mark> pools &lt;b&gt;at&lt;/b&gt; dusk <mark>${tag}</mark>`);
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("Tide pool draft");
  });

  it("answers FTS syntax typed into the box with a normal page", async () => {
    for (const q of ['"', "AND", "*", "(", "NEAR(", "-", ":", `${tag} NEAR(`, `"${tag}`]) {
      const res = await get(`/allBlogs?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    const res = await get(`/allBlogs.data?q=${encodeURIComponent(`"${tag}" OR (`)}`);
    expect(res.status).toBe(200);
  });

  it("suggests topics and the latest posts when nothing matches", async () => {
    const html = await (await get(`/allBlogs?q=nothingmatches${tag}`)).text();
    expect(html).toContain("No blogs found");
    const topics = html.match(/aria-label="Suggested topics".*?<\/ul>/s)?.[0] ?? "";
    expect(topics.match(/href="\/allBlogs\?category=/g)).toHaveLength(10);
    const latest = html.match(/aria-label="Suggested latest posts".*?<\/ul>/s)?.[0] ?? "";
    expect(latest.match(/href="\/blogs\//g)?.length).toBeGreaterThan(0);
  });

  it("ends a post with up to three related posts, never itself nor a draft", async () => {
    const html = await (await get(postPath(post))).text();
    const section = html.match(/<section aria-labelledby="related-heading".*?<\/section>/s)?.[0] ?? "";
    expect(section).toContain("Read next");
    const links = [...section.matchAll(/href="\/blogs\/([^"]+)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(3);
    expect(links).not.toContain(post.id);
    expect(section).toContain(`Tide tables explained ${tag}`);
    expect(section).not.toContain("Tide pool draft");
  });
});
