import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import type { Blog } from "#worker/services/blogs/model.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { tagSlug } from "#worker/services/blogs/slug.ts";
import { tagInQuery } from "#worker/services/blogs/tags.ts";
import { sharedTags } from "#worker/cache/policy.ts";
import { tagsFor } from "#worker/cache/tags.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";

type ErrorBody = { error: { code: string; fields?: Record<string, string> } };
const page = (path: string) => call(path, { headers: { Accept: "text/html" }, redirect: "manual" });
const tagRows = (blogId: string) =>
  db().select().from(schema.blogTags).where(eq(schema.blogTags.blogId, blogId)).orderBy(schema.blogTags.tag);

let n = 0;
const post = (overrides: Record<string, unknown> = {}) => ({
  title: `Tagged post ${n++}`,
  short_description: "A post with tags.",
  blog_details: "Body.",
  category: "Technology",
  date_time: `2026-01-${String(10 + (n % 18)).padStart(2, "0")}T10:00`,
  image: "https://img.example.com/cover.png",
  ...overrides,
});

describe("tags", () => {
  let headers: Record<string, string>;
  const unique = `t${Date.now().toString(36)}`;

  beforeAll(async () => {
    headers = await asUser(await makeUser({ name: "Tess Tagger" }));
  });

  async function create(overrides: Record<string, unknown>): Promise<string> {
    const res = await send("POST", "/api/blogs", post(overrides), headers);
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    return (await json<{ insertedId: string }>(res)).insertedId;
  }

  it("gives a tag one slug whatever its spelling, and reads #tag out of a search", () => {
    expect(tagSlug("#Edge Cache")).toBe("edge-cache");
    expect(tagSlug("  Crème_Brûlée ")).toBe("crème-brûlée");
    expect(tagSlug("###")).toBe("");
    expect(tagInQuery("#Edge cache tips")).toEqual({ tag: "edge", q: "cache tips" });
    expect(tagInQuery("tips #edge")).toEqual({ tag: "edge", q: "tips" });
    expect(tagInQuery("#edge")).toEqual({ tag: "edge", q: undefined });
    expect(tagInQuery("no tag")).toEqual({ q: "no tag" });
  });

  it("stores up to five tags as spelled, de-duplicated by slug, in the record and in blog_tags", async () => {
    const id = await create({ tags: `#Edge Cache, web, WEB, ${unique}` });
    const record = await json<Blog>(await call(`/api/blogs/${id}`));
    expect(record.tags).toEqual(["Edge Cache", "web", unique]);
    expect((await tagRows(id)).map((r) => [r.tag, r.name])).toEqual(
      [
        ["edge-cache", "Edge Cache"],
        ["web", "web"],
        [unique, unique],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
    // The REST API takes an array too.
    const other = await create({ tags: ["One", "two"] });
    expect((await json<Blog>(await call(`/api/blogs/${other}`))).tags).toEqual(["One", "two"]);
  });

  it("refuses six tags, a tag with nothing usable, or one too long, with a field error and nothing written", async () => {
    for (const tags of ["a, b, c, d, e, f", "ok, !!!", "x".repeat(31), [1, 2]]) {
      const title = `Refused ${n++}`;
      const res = await send("POST", "/api/blogs", post({ title, tags }), headers);
      expect(res.status, String(tags)).toBe(400);
      expect((await json<ErrorBody>(res)).error.fields?.tags, String(tags)).toBeTruthy();
      expect(await db().select().from(schema.blogs).where(eq(schema.blogs.title, title))).toHaveLength(0);
    }
  });

  it("an edit replaces the tags; leaving the field out keeps them; blank clears them", async () => {
    const id = await create({ tags: "alpha, beta" });
    expect((await send("PUT", `/api/blog/${id}`, { tags: "beta, gamma" }, headers)).status).toBe(200);
    expect((await tagRows(id)).map((r) => r.tag)).toEqual(["beta", "gamma"]);
    await send("PUT", `/api/blog/${id}`, { title: "Retitled but same tags" }, headers);
    expect((await json<Blog>(await call(`/api/blogs/${id}`))).tags).toEqual(["beta", "gamma"]);
    await send("PUT", `/api/blog/${id}`, { tags: "" }, headers);
    expect(await tagRows(id)).toHaveLength(0);
    expect((await json<Blog>(await call(`/api/blogs/${id}`))).tags).toEqual([]);
  });

  it("/tags/{tag} lists only visible posts, 12 a page, shared and purged with the blogs", async () => {
    const tag = `${unique}-page`;
    const ids: string[] = [];
    for (let i = 0; i < 13; i++) ids.push(await create({ tags: tag, title: `Paged ${tag} ${i}` }));
    await create({ tags: tag, title: `Hidden draft ${tag}`, status: "draft" });
    await create({ tags: tag, title: `Hidden later ${tag}`, status: "scheduled", date_time: "2099-01-01T10:00" });
    const res = await page(`/tags/${tag}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("s-maxage");
    expect(res.headers.get("Cache-Tag")).toContain("blogs");
    const html = await res.text();
    expect(html).toContain(`#<!-- -->${tag}`);
    expect(html).toContain("13 posts");
    expect(html.match(/<article/g)).toHaveLength(12);
    expect(html).not.toContain("Hidden");
    expect(html).toContain(`href="/tags/${tag}/rss.xml"`);
    const second = await (await page(`/tags/${tag}?page=2`)).text();
    expect(second.match(/<article/g)).toHaveLength(1);
    // Any blog write purges `blogs`, the tag the page is cached under.
    expect(sharedTags(new URL(`https://blog.test/tags/${tag}?page=2`))).toEqual(["site", "blogs"]);
    expect(tagsFor({ kind: "blog.created" })).toContain("blogs");
    expect(tagsFor({ kind: "blog.changed", blogId: ids[0]! })).toContain("blogs");
  });

  it("answers 404 for a path with no letter or digit, and for a tag no visible post carries", async () => {
    expect((await page("/tags/%21%21%21")).status).toBe(404);
    expect((await page("/tags/Not%20A%20Tag")).status).toBe(404);
    expect((await page(`/tags/${unique}-nobody`)).status).toBe(404);
  });

  it("/tags/{tag}/rss.xml carries the tag's visible posts at their readable links", async () => {
    const tag = `${unique}-feed`;
    const id = await create({ tags: tag, title: "Feed me" });
    await create({ tags: tag, title: "Draft feed", status: "draft" });
    const res = await call(`/tags/${tag}/rss.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await res.text();
    expect(xml.match(/<item>/g)).toHaveLength(1);
    expect(xml).toContain(`<link>https://blog.test${postPath({ id, title: "Feed me" })}</link>`);
    expect(xml).toContain(`https://blog.test/tags/${tag}/rss.xml`);
    expect(xml).not.toContain("Draft feed");
    expect((await call("/tags/!!!/rss.xml")).status).toBe(404);
    // Another spelling of the tag: its slug's feed.
    const moved = await call(`/tags/${tag.toUpperCase()}/rss.xml`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("Location")).toBe(`/tags/${tag}/rss.xml`);
  });

  it("/allBlogs searches a tag with ?tag= or #tag in the search box; cards and the post show tags", async () => {
    const tag = `${unique}-search`;
    const id = await create({ tags: tag, title: "Findable by tag" });
    await create({ title: "Not tagged at all" });
    for (const path of [`/allBlogs?tag=${tag}`, `/allBlogs?q=${encodeURIComponent(`#${tag}`)}`]) {
      const html = await (await page(path)).text();
      expect(html, path).toContain("Findable by tag");
      expect(html, path).not.toContain("Not tagged at all");
      expect(html, path).toContain(`href="/tags/${tag}"`);
    }
    const words = await (await page(`/allBlogs?q=${encodeURIComponent(`#${tag} findable`)}`)).text();
    expect(words).toContain("Findable");
    const none = await (await page(`/allBlogs?q=${encodeURIComponent(`#${tag} zebra`)}`)).text();
    expect(none).not.toContain("Findable by tag");
    const postHtml = await (await page(postPath({ id, title: "Findable by tag" }))).text();
    expect(postHtml).toContain(`href="/tags/${tag}"`);
  });
});
