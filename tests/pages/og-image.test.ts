import { describe, expect, it } from "vitest";
import { decode } from "fast-png";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe("a post's share card (/blogs/{id}/og.png)", () => {
  it("answers a 1200x630 PNG, shared under the post's tag", async () => {
    const writer = await makeUser({ name: "Ada Writer" });
    const blog = await makeBlog(writer, { title: "Café at the edge", category: "Travel" });
    const res = await call(`/blogs/${blog.id}/og.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toMatch(/^public, max-age=0, s-maxage=\d+/);
    expect(res.headers.get("Cache-Tag")?.split(",")).toEqual(["site", `blog:${blog.id}`]);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    // IHDR: width and height as big-endian 32-bit numbers at bytes 16..23.
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([1200, 630]);
    const image = decode(bytes);
    expect([image.width, image.height]).toEqual([1200, 630]);
    // Text was drawn: the card is not one flat gradient (white title pixels exist).
    let white = 0;
    for (let i = 0; i < image.data.length; i += image.channels)
      if (image.data[i] === 255 && image.data[i + 2] === 255) white++;
    expect(white).toBeGreaterThan(1000);
    // The isolate's first card instantiates the renderer's wasm and fetches its fonts.
  }, 60_000);

  it("draws a post titled in Chinese, Greek and accented Latin by a Chinese name, not question marks", async () => {
    const writer = await makeUser({ name: "王小明" });
    const blog = await makeBlog(writer, { title: "我的FTP Server 测试 — Ελληνικά café", category: "Technology" });
    const marks = await makeBlog(await makeUser({ name: "???" }), {
      title: "??FTP Server ?? — ????????? cafe",
      category: "Technology",
    });
    const res = await call(`/blogs/${blog.id}/og.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    const real = decode(new Uint8Array(await res.arrayBuffer()));
    const fake = decode(new Uint8Array(await (await call(`/blogs/${marks.id}/og.png`)).arrayBuffer()));
    expect([real.width, real.height]).toEqual([1200, 630]);
    let differ = 0;
    for (let i = 0; i < real.data.length; i += real.channels)
      if (Math.abs(real.data[i]! - fake.data[i]!) > 64) differ++;
    expect(differ).toBeGreaterThan(5_000);
  }, 60_000);

  it("is linked from the post page's meta with its size and a large Twitter card", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const html = await (await call(`/blogs/${blog.id}`)).text();
    expect(html).toContain(`<meta property="og:image" content="https://blog.test/blogs/${blog.id}/og.png"`);
    expect(html).toContain('<meta property="og:image:width" content="1200"');
    expect(html).toContain('<meta property="og:image:height" content="630"');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
  });

  it("stands in for a post with neither a social image nor a cover, in the meta and the JSON-LD", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { image: "", socialImage: "" });
    const html = await (await call(`/blogs/${blog.id}`)).text();
    const card = `https://blog.test/blogs/${blog.id}/og.png`;
    expect(html).toContain(`<meta property="og:image" content="${card}"`);
    expect(html).toContain(`<meta name="twitter:image" content="${card}"`);
    expect(html).toContain(`"image":["${card}"]`);
    // Never the site's root, which is what an empty cover resolved to.
    expect(html).not.toContain('"image":["https://blog.test/"]');
    expect((await call(`/blogs/${blog.id}/og.png`)).status).toBe(200);
  });

  it("is a 404 for a draft (even to its writer), a scheduled post, an unknown or a malformed id", async () => {
    const writer = await makeUser();
    const draft = await makeBlog(writer, { status: "draft" });
    const scheduled = await makeBlog(writer, {
      status: "scheduled",
      publishAt: Date.now() + 86_400_000,
    });
    expect((await call(`/blogs/${draft.id}/og.png`)).status).toBe(404);
    expect((await call(`/blogs/${draft.id}/og.png`, { headers: await asUser(writer) })).status).toBe(404);
    expect((await call(`/blogs/${scheduled.id}/og.png`)).status).toBe(404);
    expect((await call("/blogs/zzzzzzzzzzzzzzzzzzzz/og.png")).status).toBe(404);
    expect((await call("/blogs/not-an-id!/og.png")).status).toBe(404);
  });
});
