import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { postPath, slugOf } from "#worker/services/blogs/slug.ts";
import { sharedTags } from "#worker/cache/policy.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { call, json } from "../support/http";

const get = (path: string) => call(path, { headers: { Accept: "text/html" }, redirect: "manual" });

describe("slugOf", () => {
  it("makes lower-case words joined by hyphens, Latin accents dropped, cut at a word", () => {
    expect(slugOf("Hello, World!")).toBe("hello-world");
    expect(slugOf("  Crème brûlée à la maison  ")).toBe("creme-brulee-a-la-maison");
    expect(slugOf("Don't panic: it’s 2026")).toBe("dont-panic-its-2026");
    expect(slugOf("日本語のタイトル")).toBe("日本語のタイトル");
    expect(slugOf("!!!")).toBe("post");
    const long = slugOf("word ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith("-")).toBe(false);
    expect(slugOf("x".repeat(200))).toHaveLength(80);
  });
});

describe("redirects keep the visitor's query (issue 47)", () => {
  it("a bare id, an old slug and the spec's /blog/{id} carry ?ref= and campaign tags, twice over (the shared copy)", async () => {
    const author = await makeUser({ name: "Quentin Query" });
    const blog = await makeBlog(author, { title: "Where Readers Come From" });
    const path = `/blogs/${blog.id}/where-readers-come-from`;
    const query = "?ref=news.ycombinator.com&utm_source=hn&utm_campaign=launch";
    for (let round = 0; round < 2; round++) {
      const bare = await get(`/blogs/${blog.id}${query}`);
      expect(bare.status).toBe(301);
      expect(bare.headers.get("Location")).toBe(`${path}${query}`);
      const old = await get(`/blogs/${blog.id}/an-older-title${query}`);
      expect(old.headers.get("Location")).toBe(`${path}${query}`);
      const spec = await get(`/blog/${blog.id}${query}`);
      expect(spec.status).toBe(301);
      expect(new URL(spec.headers.get("Location")!, "https://blog.test").search).toBe(query);
    }
    // Another visitor's tags are theirs, not the first one's (the redirect is shared, its query is not).
    const other = await get(`/blogs/${blog.id}?ref=mastodon.social`);
    expect(other.headers.get("Location")).toBe(`${path}?ref=mastodon.social`);
    expect((await get(`/blogs/${blog.id}`)).headers.get("Location")).toBe(path);
  });
});

describe("/blogs/{id}/{slug}", () => {
  let blog: Awaited<ReturnType<typeof makeBlog>>;

  beforeAll(async () => {
    const author = await makeUser({ name: "Sam Slug" });
    blog = await makeBlog(author, { title: "Readable Links, at Last!" });
  });

  it("serves the post at its readable link, with that link as canonical, share, and JSON-LD url", async () => {
    const path = `/blogs/${blog.id}/readable-links-at-last`;
    expect(postPath(blog)).toBe(path);
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("s-maxage");
    const html = await res.text();
    expect(html).toContain(`<link rel="canonical" href="https://blog.test${path}"/>`);
    expect(html).toContain(`<meta property="og:url" content="https://blog.test${path}"/>`);
    expect(html).toContain(encodeURIComponent(`https://blog.test${path}`));
    expect(html).toContain(`"url":"https://blog.test${path}"`);
  });

  it("redirects /blogs/{id}, any wrong slug permanently to the readable link", async () => {
    const path = postPath(blog);
    const bare = await get(`/blogs/${blog.id}`);
    expect(bare.status).toBe(301);
    expect(bare.headers.get("Location")).toBe(path);
    expect(bare.headers.get("Cache-Control")).toBe("private, no-store");
    const wrong = await get(`/blogs/${blog.id}/something-else?x=1`);
    expect(wrong.status).toBe(301);
    // The visitor's query goes along (issue 47).
    expect(wrong.headers.get("Location")).toBe(`${path}?x=1`);
  });

  it("keeps an old slug working after a retitle: it redirects to the new one", async () => {
    const author = await makeUser();
    const post = await makeBlog(author, { title: "First title" });
    expect((await get(`/blogs/${post.id}/first-title`)).status).toBe(200);
    await db().update(schema.blogs).set({ title: "A better title" }).where(eq(schema.blogs.id, post.id));
    const old = await get(`/blogs/${post.id}/first-title`);
    expect(old.status).toBe(301);
    expect(old.headers.get("Location")).toBe(`/blogs/${post.id}/a-better-title`);
  });

  it("answers 404 for an unknown id under any slug", async () => {
    const res = await get(`/blogs/zzzzzzzzzzzzzzzzzzzz/some-slug`);
    expect(res.status).toBe(404);
  });

  it("tags the readable link with the post, so an edit purges it", () => {
    expect(sharedTags(new URL(`https://blog.test/blogs/${blog.id}/a-slug`))).toEqual([
      "site",
      "blogs",
      `blog:${blog.id}`,
    ]);
    expect(sharedTags(new URL(`https://blog.test/blogs/${blog.id}/og.png`))).toEqual(["site", `blog:${blog.id}`]);
  });

  it("gives the REST record a slug, and RSS and the sitemap the readable link", async () => {
    const record = await json<{ slug: string }>(await call(`/api/blogs/${blog.id}`));
    expect(record.slug).toBe("readable-links-at-last");
    const rss = await (await call("/rss.xml")).text();
    expect(rss).toContain(`<link>https://blog.test${postPath(blog)}</link>`);
    const sitemap = await (await call("/sitemaps/posts-1.xml")).text();
    expect(sitemap).toContain(`<loc>https://blog.test${postPath(blog)}</loc>`);
  });

  it("links cards on the listing to the readable link", async () => {
    const html = await (await get("/allBlogs")).text();
    expect(html).toContain(`href="${postPath(blog)}"`);
  });
});
