import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createServices } from "#worker/services";
import { containsPattern, searchWords } from "#worker/services/blogs";
import { makeBlog, makeUser } from "../support/factories";

const services = () => createServices(env);
const at = (day: number) => new Date(Date.UTC(2026, 1, day, 9)).toISOString();
// A word no other test file writes, so totals are exact even when files share D1.
const tag = `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

describe("blog search", () => {
  beforeAll(async () => {
    const author = await makeUser({ name: "Grace" });
    await makeBlog(author, {
      title: `Edge caching ${tag}`,
      shortDescription: "Fast pages",
      blogDetails: "Plain body.",
      category: "Technology",
      dateTime: at(1),
    });
    await makeBlog(author, {
      title: `Travel light ${tag}`,
      shortDescription: "One small bag",
      blogDetails: "Cache your maps offline.",
      category: "Travel",
      dateTime: at(2),
    });
    await makeBlog(author, {
      title: `Saving money ${tag}`,
      shortDescription: "Budget with 100% honesty",
      blogDetails: "An emergency fund first.",
      category: "Finance",
      dateTime: at(3),
    });
    await makeBlog(author, {
      title: `snake_case names ${tag}`,
      shortDescription: "Naming things",
      blogDetails: "Use snake_case in SQL.",
      category: "Technology",
      dateTime: at(4),
    });
    await makeBlog(author, {
      title: `AI prompts ${tag}`,
      shortDescription: "Better prompts",
      blogDetails: "Be specific about the CACHE you want.",
      category: "AI",
      dateTime: at(5),
    });
    for (let day = 6; day <= 10; day++) {
      await makeBlog(author, {
        title: `Paging post ${day} ${tag}`,
        blogDetails: "pagingword",
        category: "Science",
        dateTime: at(day),
      });
    }
  });

  it("matches each word in the title, the short description or the details, case-insensitively", async () => {
    const byTitle = await services().blogs.search({ q: `EDGE ${tag}` });
    expect(byTitle.items.map((b) => b.title)).toEqual([`Edge caching ${tag}`]);
    const byDescription = await services().blogs.search({ q: `small BAG ${tag}` });
    expect(byDescription.items.map((b) => b.title)).toEqual([`Travel light ${tag}`]);
    // "cach" is in a title (caching), a body (Cache your maps) and another body (CACHE): newest first.
    const everywhere = await services().blogs.search({ q: `Cach ${tag}` });
    expect(everywhere.items.map((b) => b.title)).toEqual([
      `AI prompts ${tag}`,
      `Travel light ${tag}`,
      `Edge caching ${tag}`,
    ]);
    expect(everywhere.total).toBe(3);
  });

  it("ANDs the words: every word must appear somewhere in the blog", async () => {
    const both = await services().blogs.search({ q: `  cache   offline ${tag} ` });
    expect(both.items.map((b) => b.title)).toEqual([`Travel light ${tag}`]);
    const none = await services().blogs.search({ q: `cache emergency ${tag}` });
    expect(none).toMatchObject({ items: [], total: 0, pages: 1 });
  });

  it("treats % and _ literally", async () => {
    const percent = await services().blogs.search({ q: `100% ${tag}` });
    expect(percent.items.map((b) => b.title)).toEqual([`Saving money ${tag}`]);
    // An unescaped % would match every blog carrying the tag.
    expect((await services().blogs.search({ q: `% ${tag}` })).items.map((b) => b.title)).toEqual([
      `Saving money ${tag}`,
    ]);
    const underscore = await services().blogs.search({ q: `snake_case ${tag}` });
    expect(underscore.items.map((b) => b.title)).toEqual([`snake_case names ${tag}`]);
    // An unescaped _ would match any character ("snakeXcase" does not exist, "_" alone would match all).
    expect((await services().blogs.search({ q: `_ ${tag}` })).total).toBe(1);
    expect((await services().blogs.search({ q: `\\ ${tag}` })).total).toBe(0);
    expect(containsPattern("a%b_c\\d")).toBe("%a\\%b\\_c\\\\d%");
  });

  it("filters by category, alone or with words, and an unknown category matches nothing", async () => {
    const tech = await services().blogs.search({ q: tag, category: "Technology" });
    expect(tech.items.map((b) => b.title)).toEqual([`snake_case names ${tag}`, `Edge caching ${tag}`]);
    const ai = await services().blogs.search({ category: "AI" });
    expect(ai.items.every((b) => b.category === "AI")).toBe(true);
    expect(ai.items.map((b) => b.title)).toContain(`AI prompts ${tag}`);
    const unknown = await services().blogs.search({ q: tag, category: "Cooking" });
    expect(unknown).toMatchObject({ items: [], total: 0 });
    // Categories are exact: a lower-cased one is not one of the ten.
    expect((await services().blogs.search({ q: tag, category: "ai" })).total).toBe(0);
    expect((await services().blogs.search({ q: tag, category: "" })).total).toBe(10);
  });

  it("paginates filtered results with the total", async () => {
    const first = await services().blogs.search({ q: `pagingword ${tag}`, page: 1 });
    expect(first).toMatchObject({ total: 5, page: 1, limit: 4, pages: 2 });
    expect(first.items.map((b) => b.title)).toEqual([10, 9, 8, 7].map((d) => `Paging post ${d} ${tag}`));
    const second = await services().blogs.search({ q: `pagingword ${tag}`, page: "2" });
    expect(second.items.map((b) => b.title)).toEqual([`Paging post 6 ${tag}`]);
    const beyond = await services().blogs.search({ q: `pagingword ${tag}`, page: 9 });
    expect(beyond).toMatchObject({ items: [], total: 5, pages: 2 });
  });

  it("says nothing matched rather than failing on odd input", async () => {
    expect((await services().blogs.search({ q: `nothing-like-this-${tag}` })).items).toEqual([]);
    const odd = await services().blogs.search({ q: { $ne: 1 }, category: ["AI"], page: "x" });
    expect(odd).toMatchObject({ items: [], total: 0, page: 1 });
    const huge = await services().blogs.search({ q: `${tag} ${"x".repeat(100_000)}` });
    expect(huge.items).toEqual([]);
    expect(searchWords("a b c d e f g h i j k")).toHaveLength(8);
    expect(searchWords("Cache cache CACHE")).toEqual(["cache"]);
    // D1 refuses LIKE patterns over 50 bytes: long words are cut to a prefix that still finds them.
    expect(new TextEncoder().encode(containsPattern("é%".repeat(100))).length).toBeLessThanOrEqual(50);
    const long = await services().blogs.search({ q: `${tag}${"y".repeat(300)}` });
    expect(long.total).toBe(0);
  });

  it("keeps page() as the unfiltered search", async () => {
    const all = await services().blogs.page({ page: 1, limit: 4 });
    const search = await services().blogs.search({ page: 1, limit: 4 });
    expect(all).toEqual(search);
    expect(all.total).toBeGreaterThanOrEqual(10);
  });
});
