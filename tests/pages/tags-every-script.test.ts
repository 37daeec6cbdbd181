import { beforeAll, describe, expect, it } from "vitest";
import { tagFold, tagPath } from "#worker/services/blogs/slug.ts";
import { asUser, makeUser } from "../support/factories";
import { call, send } from "../support/http";

// Issue 43: tag pages in every script, and a tag found without its accents as search finds words.
const page = (path: string) => call(path, { headers: { Accept: "text/html" }, redirect: "manual" });
const mark = Math.random().toString(36).slice(2, 7);

const TAGS: [script: string, tag: string][] = [
  ["Chinese", `咖啡${mark}`],
  ["Japanese", `日本語${mark}`],
  ["Korean", `커피${mark}`],
  ["Greek", `Καλημέρα${mark}`],
  ["Cyrillic", `Ёлка${mark}`],
  ["Arabic", `قهوة${mark}`],
  ["Hebrew", `קפה${mark}`],
  ["Hindi", `चाय${mark}`],
  ["Thai", `กาแฟ${mark}`],
  ["Latin", `Café${mark}`],
];

describe("tags in every script", () => {
  beforeAll(async () => {
    const headers = await asUser(await makeUser({ name: "Tomoko Tags" }));
    for (let i = 0; i < TAGS.length; i += 5) {
      const res = await send(
        "POST",
        "/api/blogs",
        {
          title: `Tagged in many scripts ${i}`,
          short_description: "Tags of every script.",
          blog_details: "Body.",
          category: "Technology",
          date_time: "2026-02-10T10:00",
          image: "https://img.example.com/cover.png",
          tags: TAGS.slice(i, i + 5)
            .map(([, t]) => t)
            .join(", "),
        },
        headers,
      );
      expect(res.status).toBe(201);
    }
  });

  it.each(TAGS)("%s: the tag %s has its page", async (_script, tag) => {
    const res = await page(tagPath(tag));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(tag);
  });

  it.each([
    [`cafe${mark}`, `Café${mark}`],
    [`καλημερα${mark}`, `Καλημέρα${mark}`],
    [`елка${mark}`, `Ёлка${mark}`],
  ])("/tags/%s, without accents, answers 301 to the tag %s", async (typed, tag) => {
    const res = await page(`/tags/${encodeURIComponent(typed)}`);
    expect(res.status).toBe(301);
    expect(res.headers.get("Location")).toBe(tagPath(tag));
  });

  it("a tag that folds to nothing known is still a 404, and other scripts' marks are never folded away", async () => {
    expect((await page(`/tags/${encodeURIComponent(`tea${mark}`)}`)).status).toBe(404);
    expect(tagFold("चाय")).toBe("चाय");
    expect(tagFold("café")).toBe("cafe");
  });
});
