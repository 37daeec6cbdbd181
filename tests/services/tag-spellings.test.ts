import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { tagName, tagPath, tagSlug } from "#worker/services/blogs/slug.ts";
import { readTag, tagKey, tagsField } from "#worker/services/blogs/tags.ts";
import { importedTags } from "#worker/services/import/mapping.ts";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { clearContent, makeBlog, makeUser } from "../support/factories";

/**
 * Tags keep the writer's spelling ("café", "Web Performance", "数据库", "Ελληνικά") and are known by a
 * Unicode-aware slug; /tags counts each tag's visible posts by the one visible-blogs rule, kept by
 * triggers (blog_counts, scope 'tag', migration 0025), and shows the spelling its visible posts use.
 */
const services = () => createServices(env);
const HOUR = 60 * 60 * 1000;

const actor = (u: { id: string; name: string; email: string; role?: string }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role === "admin" ? "admin" : "user",
  photoURL: null,
});

describe("the tag rule", () => {
  it("slugs in any script: lower case, letters and digits kept, spaces and punctuation one hyphen", () => {
    const cases: [string, string][] = [
      ["Web Performance", "web-performance"],
      ["web  performance", "web-performance"],
      ["  #Web\tPerformance ", "web-performance"],
      ["web-performance", "web-performance"],
      ["café", "café"],
      ["CAFÉ", "café"],
      // Decomposed (e + combining acute) is the same tag as composed.
      ["cafe\u0301", "café"],
      ["数据库", "数据库"],
      ["Ελληνικά", "ελληνικά"],
      ["ΕΛΛΗΝΙΚΆ", "ελληνικά"],
      ["हिन्दी", "हिन्दी"],
      ["日本語・テスト", "日本語-テスト"],
      ["Ｗｅｂ", "web"],
      ["İstanbul", "istanbul"],
      ["Crème_Brûlée", "crème-brûlée"],
      ["Don't panic", "dont-panic"],
      ["C++", "c"],
      ["2026", "2026"],
      // The spellings stored before (lower-case ASCII words joined by hyphens) are their own slugs.
      ["edge-cache", "edge-cache"],
      ["###", ""],
      ["🚀", ""],
      ["", ""],
    ];
    for (const [typed, slug] of cases) {
      expect(tagSlug(typed), typed).toBe(slug);
      // A slug is its own slug: the page at /tags/{slug} never redirects to itself.
      expect(tagSlug(slug), slug).toBe(slug);
    }
    expect(tagPath("café")).toBe("/tags/caf%C3%A9");
    expect(tagPath("Web Performance")).toBe("/tags/web-performance");
    expect(tagPath("数据库")).toBe("/tags/%E6%95%B0%E6%8D%AE%E5%BA%93");
  });

  it("keeps the writer's spelling, tidied: spaces, a leading #, commas and invisible controls", () => {
    expect(tagName("  #Web   Performance ")).toBe("Web Performance");
    expect(tagName("café")).toBe("café");
    expect(tagName("cafe\u0301")).toBe("café");
    expect(tagName("数据库")).toBe("数据库");
    expect(tagName("Ελληνικά")).toBe("Ελληνικά");
    expect(tagName("1,000 words")).toBe("1 000 words");
    expect(tagName("\u202eevil\u0000")).toBe("evil");
    // A zero-width non-joiner is part of a Persian word's spelling; the slug joins across it.
    expect(tagName("می\u200cخواهم")).toBe("می\u200cخواهم");
    expect(tagSlug("می\u200cخواهم")).toBe("میخواهم");
  });

  it("reads a typed tag as spelling and slug, refusing one with no letter or digit or too long", () => {
    expect(readTag("#Web  Performance")).toEqual({ ok: true, name: "Web Performance", slug: "web-performance" });
    expect(readTag("数据库")).toEqual({ ok: true, name: "数据库", slug: "数据库" });
    expect(readTag("!!!")).toEqual({ ok: false, reason: "invalid" });
    expect(readTag("x".repeat(31))).toEqual({ ok: false, reason: "tooLong" });
    // Characters, not UTF-16 units: 30 Chinese characters fit.
    expect(readTag("数".repeat(30)).ok).toBe(true);
    expect(tagKey("Web Performance")).toBe("web-performance");
    expect(tagKey("!!!")).toBeNull();
    expect(tagKey(7)).toBeNull();
  });

  it("the editor's field: spellings kept, de-duplicated by slug (first spelling wins), five at most", () => {
    expect(tagsField.parse("Web Performance, web performance, café, CAFÉ, 数据库")).toEqual([
      "Web Performance",
      "café",
      "数据库",
    ]);
    expect(tagsField.parse(["Ελληνικά", "#Edge Cache"])).toEqual(["Ελληνικά", "Edge Cache"]);
    expect(tagsField.safeParse("a, b, c, d, e, f").success).toBe(false);
    expect(tagsField.safeParse("ok, 🚀").success).toBe(false);
    expect(tagsField.parse("")).toEqual([]);
  });

  it("imports follow the same rule: Chinese and Greek tags arrive, only impossible ones are reported", () => {
    const { tags, dropped } = importedTags(
      {
        tags: ["数据库", "Ελληνικά", "Web Performance", "web performance", "🚀", "Travel"],
        categories: ["Uncategorized"],
      },
      "Travel",
    );
    expect(tags).toEqual(["数据库", "Ελληνικά", "Web Performance"]);
    expect(dropped).toEqual(["🚀"]);
  });
});

describe("/tags: every tag with visible posts, its spelling and its count", () => {
  let writer: Actor;
  let admin: Actor;

  beforeEach(async () => {
    await clearContent();
    writer = actor(await makeUser({ name: "Tag Writer" }));
    admin = actor(await makeUser({ name: "Tag Admin", role: "admin" }));
  });

  const post = (tags: string, extra: Record<string, unknown> = {}) =>
    services().blogs.create(writer, {
      title: `Tagged ${tags}`,
      short_description: "Short.",
      blog_details: "Body.",
      category: "Travel",
      date_time: new Date().toISOString(),
      image: "/images/test-image-0001.png",
      tags,
      ...extra,
    });

  /** Each tag's visible posts counted the slow way, straight from the rows with the rule written out. */
  async function live(): Promise<Record<string, number>> {
    const now = Date.now();
    const { results } = await env.DB.prepare(
      `select bt.tag as tag, count(*) as n from blog_tags bt join blogs b on b.id = bt.blog_id
       where b.status = 'published' or (b.status = 'scheduled' and b.publish_at <= ?) group by bt.tag`,
    )
      .bind(now)
      .all<{ tag: string; n: number }>();
    return Object.fromEntries(results.map((r) => [r.tag, r.n]));
  }

  async function shown(): Promise<Record<string, number>> {
    const page = await services().tags.index({ limit: 50 });
    expect(page.total).toBe(page.items.length);
    return Object.fromEntries(page.items.map((t) => [t.tag, t.posts]));
  }

  it("counts only visible posts through create, publish, unpublish, retag, schedule, due, publisher and delete", async () => {
    const s = services();
    const check = async (step: string) => {
      const expected = await live();
      expect(await shown(), step).toEqual(expected);
      for (const [tag, n] of Object.entries(expected))
        expect((await s.tags.find(tag))?.posts, `${step} ${tag}`).toBe(n);
    };
    await check("empty");
    const a = (await post("café, Web Performance")).insertedId;
    const draft = (await post("café, Secret Draft Tag", { status: "draft" })).insertedId;
    const later = new Date(Date.now() + HOUR).toISOString();
    const scheduled = (await post("Future Tag", { status: "scheduled", date_time: later })).insertedId;
    await check("created");
    expect(await shown()).toEqual({ café: 1, "web-performance": 1 });
    // Neither the draft's nor the scheduled post's own tag is listed, nor found.
    expect(await s.tags.find("Secret Draft Tag")).toBeNull();
    expect(await s.tags.find("future-tag")).toBeNull();

    await s.blogs.update(writer, draft, { status: "published" });
    await check("draft published");
    expect((await s.tags.find("café"))?.posts).toBe(2);
    await s.blogs.update(writer, a, { status: "draft" });
    await check("unpublished");
    await s.blogs.update(writer, draft, { tags: "数据库, Ελληνικά" });
    await check("retagged");
    expect(await s.tags.find("café")).toBeNull();

    // The scheduled post's moment comes: it counts at once, before the publisher flips it, and once after.
    await env.DB.prepare("update blogs set publish_at = ? where id = ?")
      .bind(Date.now() - 1000, scheduled)
      .run();
    await check("scheduled post due, not yet flipped");
    expect((await s.tags.find("Future Tag"))?.posts).toBe(1);
    expect(await s.blogs.publishDue()).toBe(1);
    await check("publisher flipped it");

    await s.blogs.remove(admin, draft);
    await check("deleted");
    await makeBlog(writer, { title: "Plain" });
    await env.DB.prepare("delete from users where id = ?").bind(writer.id).run();
    await check("writer deleted");
    expect(await shown()).toEqual({});
  });

  it("shows the spelling most of a tag's visible posts use; drafts never vote; old tags show their slug", async () => {
    const s = services();
    await post("web performance");
    await post("Web Performance");
    await post("Web Performance");
    for (let i = 0; i < 4; i++) await post("WEB PERFORMANCE", { status: "draft" });
    expect(await s.tags.find("web-performance")).toEqual({ tag: "web-performance", name: "Web Performance", posts: 3 });
    // A tie: the spelling that sorts first (capitals before small letters).
    await post("café");
    await post("Café");
    expect((await s.tags.find("CAFÉ"))?.name).toBe("Café");
    // A tag stored before spellings were kept: blogs.tags holds its slug, blog_tags no spelling.
    const old = await makeBlog(writer, { tags: "edge-cache" });
    await env.DB.prepare("insert into blog_tags (tag, blog_id) values ('edge-cache', ?)").bind(old.id).run();
    expect(await s.tags.find("edge-cache")).toEqual({ tag: "edge-cache", name: "edge-cache", posts: 1 });
    const listed = (await s.tags.index({})).items;
    expect(listed.map((t) => [t.tag, t.name, t.posts])).toEqual([
      ["café", "Café", 2],
      ["edge-cache", "edge-cache", 1],
      ["web-performance", "Web Performance", 3],
    ]);
  });

  it("pages the tags in slug order through the one pagination helper", async () => {
    for (let i = 0; i < 11; i++) {
      const n = (k: number) => String(i * 5 + k).padStart(2, "0");
      await post([1, 2, 3, 4, 5].map((k) => `Pager ${n(k)}`).join(", "));
    }
    const first = await services().tags.index({});
    expect([first.total, first.pages, first.limit, first.items.length]).toEqual([55, 2, 48, 48]);
    expect(first.items[0]).toEqual({ tag: "pager-01", name: "Pager 01", posts: 1 });
    const second = await services().tags.index({ page: "2" });
    expect(second.items.map((t) => t.tag)).toEqual(
      Array.from({ length: 7 }, (_, k) => `pager-${String(49 + k).padStart(2, "0")}`),
    );
    await expect(services().tags.index({ page: "abc" })).rejects.toThrow(/page must be a whole number/);
  });
});
