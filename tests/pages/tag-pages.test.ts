import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Blog } from "#worker/services/blogs/model.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { sharedTags } from "#worker/cache/policy.ts";
import { tagsFor } from "#worker/cache/tags.ts";
import { asUser, clearContent, makeUser } from "../support/factories";
import { call, json, send, untilHit } from "../support/http";

/**
 * Tags keep the writer's spelling on every page: the post and its cards show "#café", "#Web Performance",
 * "#数据库", "#Ελληνικά"; the tag lives at its slug's URL (/tags/caf%C3%A9, /tags/web-performance), any other
 * spelling of the path is a 301 to it, and /tags lists every tag with visible posts, drafts never counted.
 */
const page = (path: string) => call(path, { headers: { Accept: "text/html" }, redirect: "manual" });
const html = async (path: string) => {
  const res = await page(path);
  expect(res.status, path).toBe(200);
  return res.text();
};

/** The tags /tags shows: [href, spelling, count] of each link, in order. */
function listed(text: string): [string, string, number][] {
  const links = text.matchAll(
    /<a[^>]*href="(\/tags\/[^"]+)"[^>]*><span[^>]*>#<!-- -->([^<]*)<\/span> <span[^>]*>(\d+) posts?<\/span><\/a>/g,
  );
  return [...links].map((m) => [m[1]!, m[2]!, Number(m[3])]);
}

let n = 0;
const post = (overrides: Record<string, unknown> = {}) => ({
  title: `Spelled post ${n++}`,
  short_description: "A post with tags in many scripts.",
  blog_details: "Body.",
  category: "Technology",
  date_time: `2026-02-${String(10 + (n % 18)).padStart(2, "0")}T10:00`,
  image: "https://img.example.com/cover.png",
  ...overrides,
});

describe("tags that keep the writer's spelling", () => {
  let headers: Record<string, string>;
  let first: string;

  async function create(overrides: Record<string, unknown>): Promise<string> {
    const res = await send("POST", "/api/blogs", post(overrides), headers);
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    return (await json<{ insertedId: string }>(res)).insertedId;
  }

  beforeAll(async () => {
    await clearContent();
    headers = await asUser(await makeUser({ name: "Sofia Spelling" }));
    first = await create({ title: "Four scripts", tags: "café, Web Performance, 数据库, Ελληνικά" });
    await create({ title: "Lower case", tags: "web  performance, CAFÉ" });
    await create({ title: "Capitals again", tags: "Web Performance" });
    await create({ title: "Hidden draft post", tags: "Secret Draft Tag, café, WEB PERFORMANCE", status: "draft" });
    await create({
      title: "Hidden later post",
      tags: "Future Tag, café",
      status: "scheduled",
      date_time: "2099-01-01T10:00",
    });
  });

  it("the post and its card show each tag as written, linked by its slug, with a link to every tag", async () => {
    const record = await json<Blog>(await call(`/api/blogs/${first}`));
    expect(record.tags).toEqual(["café", "Web Performance", "数据库", "Ελληνικά"]);
    const { results } = await env.DB.prepare("select tag, name from blog_tags where blog_id = ? order by tag")
      .bind(first)
      .all<{ tag: string; name: string }>();
    expect(results.map((r) => [r.tag, r.name])).toEqual([
      ["café", "café"],
      ["web-performance", "Web Performance"],
      ["ελληνικά", "Ελληνικά"],
      ["数据库", "数据库"],
    ]);
    const text = await html(postPath({ id: first, title: "Four scripts" }));
    for (const [href, name] of [
      ["/tags/caf%C3%A9", "café"],
      ["/tags/web-performance", "Web Performance"],
      ["/tags/%E6%95%B0%E6%8D%AE%E5%BA%93", "数据库"],
      ["/tags/%CE%B5%CE%BB%CE%BB%CE%B7%CE%BD%CE%B9%CE%BA%CE%AC", "Ελληνικά"],
    ]) {
      expect(text).toMatch(new RegExp(`href="${href}"[^>]*>#<!-- -->${name}</a>`));
    }
    expect(text).toMatch(/href="\/tags"[^>]*>All tags<\/a>/);
    // A card on another list shows the same spellings.
    const list = await html("/allBlogs");
    expect(list).toMatch(/href="\/tags\/caf%C3%A9"[^>]*>#<!-- -->café<\/a>/);
    expect(list).toMatch(/href="\/tags\/caf%C3%A9"[^>]*>#<!-- -->CAFÉ<\/a>/);
  });

  it("/tags/café and /tags/caf%C3%A9 are the tag's page, shown as most of its visible posts spell it", async () => {
    for (const path of ["/tags/café", "/tags/caf%C3%A9"]) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Cache-Tag"), path).toContain("blogs");
      const text = await res.text();
      expect(text).toContain('<link rel="canonical" href="https://blog.test/tags/caf%C3%A9"/>');
      // "café" and "CAFÉ" tie among the visible posts; the draft and the later post do not count.
      expect(text).toContain("#<!-- -->CAFÉ</h1>");
      expect(text).toContain("2 posts");
      expect(text).not.toContain("Hidden");
      expect(text).toContain('href="/tags/caf%C3%A9/rss.xml"');
      expect(text).toMatch(/href="\/tags"[^>]*>.*All tags<\/a>/);
    }
    const performance = await html("/tags/web-performance");
    expect(performance).toContain("#<!-- -->Web Performance</h1>");
    expect(performance).toContain("3 posts");
    for (const [path, name] of [
      ["/tags/%E6%95%B0%E6%8D%AE%E5%BA%93", "数据库"],
      ["/tags/%CE%B5%CE%BB%CE%BB%CE%B7%CE%BD%CE%B9%CE%BA%CE%AC", "Ελληνικά"],
    ]) {
      expect(await html(path!)).toContain(`#<!-- -->${name}</h1>`);
    }
  });

  it("any other spelling of a tag's path is one 301 to its slug's URL, never shared", async () => {
    const cases: [string, string][] = [
      ["/tags/Web%20Performance", "/tags/web-performance"],
      ["/tags/web%20performance", "/tags/web-performance"],
      ["/tags/WEB-PERFORMANCE", "/tags/web-performance"],
      ["/tags/Web%20Performance?page=1", "/tags/web-performance?page=1"],
      ["/tags/CAF%C3%89", "/tags/caf%C3%A9"],
      // "café" decomposed (e and a combining accent) is the same tag.
      ["/tags/cafe%CC%81", "/tags/caf%C3%A9"],
      [
        "/tags/%CE%95%CE%BB%CE%BB%CE%B7%CE%BD%CE%B9%CE%BA%CE%AC",
        "/tags/%CE%B5%CE%BB%CE%BB%CE%B7%CE%BD%CE%B9%CE%BA%CE%AC",
      ],
    ];
    for (const [path, location] of cases) {
      const res = await page(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get("Location"), path).toBe(location);
      expect(res.headers.get("Cache-Control"), path).toBe("private, no-store");
      await res.body?.cancel();
    }
    // The redirect lands on the page.
    expect((await call("/tags/Web%20Performance")).status).toBe(200);
  });

  it("a tag no visible post carries is a 404 in any spelling, with no redirect first", async () => {
    for (const path of [
      "/tags/secret-draft-tag",
      "/tags/Secret%20Draft%20Tag",
      "/tags/future-tag",
      "/tags/no-such-tag",
      "/tags/No%20Such%20Tag",
      "/tags/%F0%9F%9A%80",
      "/tags/%21%21%21",
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      await res.body?.cancel();
    }
  });

  it("/tags lists every tag with visible posts as spelled, with visible counts; drafts never counted or shown", async () => {
    const res = await page("/tags");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("All tags</h1>");
    expect(text).toContain("4 tags");
    expect(listed(text)).toEqual([
      ["/tags/caf%C3%A9", "CAFÉ", 2],
      ["/tags/web-performance", "Web Performance", 3],
      ["/tags/%CE%B5%CE%BB%CE%BB%CE%B7%CE%BD%CE%B9%CE%BA%CE%AC", "Ελληνικά", 1],
      ["/tags/%E6%95%B0%E6%8D%AE%E5%BA%93", "数据库", 1],
    ]);
    for (const hidden of ["Secret Draft Tag", "secret-draft-tag", "Future Tag", "future-tag", "WEB PERFORMANCE"]) {
      expect(text).not.toContain(hidden);
    }
    expect(text).toContain('<link rel="canonical" href="https://blog.test/tags"/>');
    expect(text).toMatch(/href="\/allBlogs"[^>]*>.*All Blogs<\/a>/);
    // Past the last page, and a malformed page.
    expect(await html("/tags?page=9")).toContain("There is no such page");
    expect((await page("/tags?page=abc")).status).toBe(400);
  });

  it("/tags pages 48 tags at a time with the one pager", async () => {
    const names = Array.from({ length: 50 }, (_, i) => `Zeta ${String(i + 1).padStart(2, "0")}`);
    for (let i = 0; i < names.length; i += 5) await create({ tags: names.slice(i, i + 5).join(", ") });
    const one = await html("/tags");
    expect(one).toContain("54 tags");
    expect(listed(one)).toHaveLength(48);
    expect(one).toContain('aria-label="Pages of tags"');
    const two = await html("/tags?page=2");
    // Slug order: café, web-performance, zeta-01 … zeta-50, then the Greek and the Chinese tag.
    expect(listed(two).map(([, name]) => name)).toEqual([
      "Zeta 47",
      "Zeta 48",
      "Zeta 49",
      "Zeta 50",
      "Ελληνικά",
      "数据库",
    ]);
    expect(two).toContain('<link rel="canonical" href="https://blog.test/tags?page=2"/>');
  });

  it("/tags is shared under `blogs`, so a post write that changes its tags purges it", async () => {
    expect(sharedTags(new URL("https://blog.test/tags"))).toEqual(["site", "blogs"]);
    expect(sharedTags(new URL("https://blog.test/tags?page=2&x=1"))).toEqual(["site", "blogs"]);
    expect(sharedTags(new URL("https://blog.test/tags/caf%C3%A9"))).toEqual(["site", "blogs"]);
    // Another spelling of the path is never a shared copy (it is a redirect).
    expect(sharedTags(new URL("https://blog.test/tags/Web%20Performance"))).toBeNull();
    expect(tagsFor({ kind: "blog.changed", blogId: first })).toContain("blogs");
    expect(tagsFor({ kind: "blog.created" })).toContain("blogs");

    const before = await untilHit("/tags");
    expect(before.headers.get("X-Cache")).toBe("HIT");
    expect(await before.text()).not.toContain("Freshly Tagged");
    expect((await send("PUT", `/api/blog/${first}`, { tags: "café, Freshly Tagged" }, headers)).status).toBe(200);
    const after = await call("/tags");
    expect(after.headers.get("X-Cache")).toBe("MISS");
    const text = await after.text();
    expect(text).toContain("#<!-- -->Freshly Tagged");
    // The post no longer carries 数据库 or Ελληνικά, so nothing visible does.
    expect(text).not.toContain("数据库");
    expect((await page("/tags/%E6%95%B0%E6%8D%AE%E5%BA%93")).status).toBe(404);
    // A draft that gains a tag changes nothing the public sees.
    const draft = await create({ tags: "Drafted Later", status: "draft" });
    expect(draft).toBeTruthy();
    expect(await (await call("/tags")).text()).not.toContain("Drafted Later");
  });

  it("a tag's feed is titled with its spelling and links by its slug; /allBlogs?tag= takes any spelling", async () => {
    const res = await call("/tags/caf%C3%A9/rss.xml");
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain("<title>Edge Blog: #CAFÉ</title>");
    expect(xml).toContain("<link>https://blog.test/tags/caf%C3%A9</link>");
    expect(xml).toContain('href="https://blog.test/tags/caf%C3%A9/rss.xml"');
    expect(xml).not.toContain("Hidden");
    for (const [path, title] of [
      ["/allBlogs?tag=Web%20Performance", "Capitals again"],
      ["/allBlogs?tag=web-performance", "Capitals again"],
      ["/allBlogs?tag=CAF%C3%89", "Lower case"],
      ["/allBlogs?q=%23caf%C3%A9", "Lower case"],
    ]) {
      const text = await html(path!);
      expect(text, path).toContain(title);
      expect(text, path).not.toContain("Hidden");
    }
    const filtered = await html("/allBlogs?tag=Web%20Performance");
    expect(filtered).toMatch(/href="\/tags\/web-performance"[^>]*>Tagged #<!-- -->Web Performance<\/a>/);
    // The sidebar leads to every tag.
    expect(filtered).toMatch(/href="\/tags"[^>]*>Browse all tags<\/a>/);
  });
});
