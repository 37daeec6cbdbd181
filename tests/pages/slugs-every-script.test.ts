import { describe, expect, it } from "vitest";
import { isChosenSlug, postPath, slugOf } from "#worker/services/blogs/slug.ts";
import { makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";

const get = (path: string) => call(path, { headers: { Accept: "text/html" }, redirect: "manual" });

// Issue 43: the automatic slug keeps the letters of every script, under the rule of a chosen slug.
const TITLES: [script: string, title: string, slug: string][] = [
  ["Chinese", "茶与咖啡 入门", "茶与咖啡-入门"],
  ["Japanese", "日本語のブログ、はじめました", "日本語のブログ-はじめました"],
  ["Korean", "서울의 커피 이야기", "서울의-커피-이야기"],
  ["Greek", "Καλημέρα Κόσμε", "καλημέρα-κόσμε"],
  ["Cyrillic", "Москва: Утро", "москва-утро"],
  ["Arabic", "مرحبا بالعالم", "مرحبا-بالعالم"],
  ["Hebrew", "שלום עולם", "שלום-עולם"],
  ["Hindi", "नमस्ते दुनिया", "नमस्ते-दुनिया"],
  ["Thai", "สวัสดี ชาวโลก", "สวัสดี-ชาวโลก"],
  ["Latin", "Crème brûlée", "creme-brulee"],
];

describe("slugOf in every script", () => {
  it.each(TITLES)("%s: %s -> %s, a slug a writer could have chosen", (_script, title, slug) => {
    expect(slugOf(title)).toBe(slug);
    expect(isChosenSlug(slugOf(title))).toBe(true);
  });

  it("keeps Hangul syllables composed and Devanagari signs on their letters", () => {
    expect(slugOf("한국어").normalize("NFC")).toBe(slugOf("한국어"));
    expect([...slugOf("हिन्दी")]).toEqual([..."हिन्दी"]);
  });

  it("cuts a long word between characters, never inside one, and gives 'post' for a title without letters", () => {
    const long = slugOf("𠀋".repeat(100));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(isChosenSlug(long)).toBe(true);
    expect(slugOf("🚀 ✨")).toBe("post");
  });
});

describe("old /post links", () => {
  it.each(TITLES.slice(0, 9))("%s: /blogs/{id}/post answers 301 to the new slug", async (_script, title, slug) => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { title });
    const path = postPath(blog);
    expect(path).toBe(`/blogs/${blog.id}/${encodeURIComponent(slug)}`);
    const old = await get(`/blogs/${blog.id}/post`);
    expect(old.status).toBe(301);
    expect(old.headers.get("Location")).toBe(path);
    expect((await get(path)).status).toBe(200);
  });
});

describe("file names in every script", () => {
  it("a download named in another script is sent as RFC 6266 filename* beside an ASCII stand-in", async () => {
    const { attachment } = await import("#worker/services/export/format.ts");
    expect(attachment("blog-site-2026-11-29.zip")).toBe('attachment; filename="blog-site-2026-11-29.zip"');
    const header = attachment(`${slugOf("咖啡馆")}-site.zip`);
    expect(header).toBe(
      `attachment; filename="___-site.zip"; filename*=UTF-8''${encodeURIComponent("咖啡馆-site.zip")}`,
    );
    // A header that is not bytes would throw here, as it would in the Worker.
    expect(new Headers({ "Content-Disposition": header }).get("Content-Disposition")).toBe(header);
  });
});
