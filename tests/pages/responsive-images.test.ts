import { beforeAll, describe, expect, it } from "vitest";
import { clearContent, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";

const page = async (path: string) => (await call(path, { headers: { Accept: "text/html" } })).text();
const imgTags = (html: string) => html.match(/<img [^>]*>/g) ?? [];
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

let blogId = "";

describe("responsive images on the public pages", () => {
  beforeAll(async () => {
    await clearContent();
    const writer = await makeUser({ name: "Imogen", photoUrl: "/images/imogen-photo-01.jpg" });
    for (let i = 1; i <= 7; i++) {
      const blog = await makeBlog(writer, {
        title: `Pictured ${i}`,
        dateTime: new Date(Date.UTC(2030, 0, i)).toISOString(),
      });
      blogId = blog.id;
    }
  });

  it("gives every picture explicit dimensions, and our own images a WebP srcset with sizes", async () => {
    for (const path of ["/", "/allBlogs", `/blogs/${blogId}`]) {
      const tags = imgTags(await page(path));
      expect(tags.length, path).toBeGreaterThan(0);
      for (const tag of tags) {
        expect(attr(tag, "width"), tag).toMatch(/^\d+$/);
        expect(attr(tag, "height"), tag).toMatch(/^\d+$/);
        const src = attr(tag, "src") ?? "";
        if (/^\/(images|featured)\//.test(src)) {
          expect(attr(tag, "srcSet") ?? attr(tag, "srcset"), tag).toMatch(/ 320w/);
          expect(attr(tag, "sizes"), tag).toBeTruthy();
        }
      }
    }
  });

  it("a post page fetches its cover first and every other picture lazily", async () => {
    const tags = imgTags(await page(`/blogs/${blogId}`));
    const first = tags.filter((t) => t.includes('fetchpriority="high"'));
    expect(first).toHaveLength(1);
    expect(attr(first[0] ?? "", "src")).toBe("/images/test-image-0001.png");
    expect(attr(first[0] ?? "", "srcSet")).toBe(
      "/images/w320/test-image-0001.png 320w, /images/w640/test-image-0001.png 640w, /images/w768/test-image-0001.png 768w, /images/w960/test-image-0001.png 960w, /images/w1280/test-image-0001.png 1280w",
    );
    expect(first[0]).toContain('loading="eager"');
  });

  it("the card list loads the first screen eagerly and the rest lazily, with no high priority", async () => {
    const tags = imgTags(await page("/allBlogs")).filter((t) => attr(t, "src") === "/images/test-image-0001.png");
    expect(tags.length).toBeGreaterThan(2);
    expect(tags.slice(0, 2).every((t) => t.includes('loading="eager"'))).toBe(true);
    expect(tags.slice(2).every((t) => t.includes('loading="lazy"'))).toBe(true);
    expect(tags.some((t) => t.includes("fetchpriority"))).toBe(false);
  });
});
