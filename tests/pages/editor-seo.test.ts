import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import type { Blog } from "#worker/services/blogs/model.ts";
import { isChosenSlug, postPath } from "#worker/services/blogs/slug.ts";
import { sharedTags } from "#worker/cache/policy.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { getPage, pngFile, postForm, withSession } from "../support/pages";

const post = (overrides: Record<string, unknown> = {}) => ({
  title: "The title readers see",
  short_description: "The short description.",
  blog_details: "Body.",
  category: "Technology",
  date_time: "2026-02-02T10:00",
  image: "/images/test-image-0001.png",
  ...overrides,
});
const get = (path: string) => call(path, { headers: { Accept: "text/html" }, redirect: "manual" });
const row = async (id: string) => (await db().select().from(schema.blogs).where(eq(schema.blogs.id, id)))[0]!;
type Refusal = { error: { code: string; fields: Record<string, string> } };

describe("the SEO title", () => {
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await asUser(await makeUser());
  });

  it("names the page in <title>, og:title and the JSON-LD headline; the heading keeps the title", async () => {
    const res = await send("POST", "/api/blogs", post({ seo_title: "Short and searchable" }), headers);
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    expect(await json<Blog>(await call(`/api/blogs/${insertedId}`))).toMatchObject({
      seo_title: "Short and searchable",
    });
    const html = await (await get(postPath({ id: insertedId, title: "The title readers see" }))).text();
    expect(html).toContain("<title>Short and searchable | ");
    expect(html).toMatch(/<meta property="og:title" content="Short and searchable \| [^"]+"\/>/);
    expect(html).toContain('"headline":"Short and searchable"');
    expect(html).toMatch(/<h1[^>]*>The title readers see<\/h1>/);
  });

  it("falls back to the title when empty, and refuses one over 70 characters", async () => {
    const { insertedId } = await json<{ insertedId: string }>(await send("POST", "/api/blogs", post(), headers));
    const html = await (await get(postPath({ id: insertedId, title: "The title readers see" }))).text();
    expect(html).toContain("<title>The title readers see | ");
    expect(html).toContain('"headline":"The title readers see"');
    const long = await send("POST", "/api/blogs", post({ seo_title: "x".repeat(71) }), headers);
    expect(long.status).toBe(400);
    expect(Object.keys((await json<Refusal>(long)).error.fields)).toEqual(["seo_title"]);
  });
});

describe("a custom slug", () => {
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await asUser(await makeUser());
  });

  it("takes lower-case letters of any script, digits and single hyphens, nothing else", async () => {
    for (const good of ["hello-world", "2026-notes", "привет-мир", "日本語", "हिन्दी-पाठ", "café"])
      expect(isChosenSlug(good), good).toBe(true);
    for (const bad of ["Hello", "a--b", "-a", "a-", "a b", "a_b", "a/b", "a.b", "ПРИВЕТ"]) {
      expect(isChosenSlug(bad), bad).toBe(false);
      const res = await send("POST", "/api/blogs", post({ slug: bad }), headers);
      expect(res.status, bad).toBe(400);
      expect(Object.keys((await json<Refusal>(res)).error.fields), bad).toEqual(["slug"]);
    }
  });

  it("is the post's readable link, even in another script, and the title's slug redirects to it", async () => {
    const { insertedId } = await json<{ insertedId: string }>(
      await send("POST", "/api/blogs", post({ slug: "привет-мир" }), headers),
    );
    const path = `/blogs/${insertedId}/${encodeURIComponent("привет-мир")}`;
    expect(postPath(await json<Blog>(await call(`/api/blogs/${insertedId}`)))).toBe(path);
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<link rel="canonical" href="https://blog.test${path}"/>`);
    // The encoded link is a shared, purged URL like any post's.
    expect(sharedTags(new URL(`https://blog.test${path}`))).toEqual(["site", "blogs", `blog:${insertedId}`]);
    // Feeds link to it too, not to the title's slug (which would only redirect).
    expect(await (await call("/rss.xml")).text()).toContain(`https://blog.test${path}`);
    const old = await get(`/blogs/${insertedId}/the-title-readers-see`);
    expect(old.status).toBe(301);
    expect(old.headers.get("Location")).toBe(path);
  });

  it("belongs to one post: another post's save of it is refused, the owner's own save is not", async () => {
    const first = await json<{ insertedId: string }>(
      await send("POST", "/api/blogs", post({ slug: "only-once" }), headers),
    );
    const taken = await send("POST", "/api/blogs", post({ slug: "only-once" }), headers);
    expect(taken.status).toBe(400);
    expect((await json<Refusal>(taken)).error).toMatchObject({
      code: "slug-taken",
      fields: { slug: expect.any(String) },
    });
    const second = await json<{ insertedId: string }>(await send("POST", "/api/blogs", post(), headers));
    const edit = await send("PUT", `/api/blog/${second.insertedId}`, { slug: "only-once" }, headers);
    expect(edit.status).toBe(400);
    expect((await row(second.insertedId)).slug).toBe("");
    const own = await send("PUT", `/api/blog/${first.insertedId}`, { slug: "only-once", title: "Retitled" }, headers);
    expect(own.status).toBe(200);
  });

  it("changing it keeps the old link working with a 301 to the new one; clearing it follows the title again", async () => {
    const { insertedId: id } = await json<{ insertedId: string }>(
      await send("POST", "/api/blogs", post({ slug: "first-slug" }), headers),
    );
    expect((await get(`/blogs/${id}/first-slug`)).status).toBe(200);
    expect((await send("PUT", `/api/blog/${id}`, { slug: "second-slug" }, headers)).status).toBe(200);
    const old = await get(`/blogs/${id}/first-slug`);
    expect(old.status).toBe(301);
    expect(old.headers.get("Location")).toBe(`/blogs/${id}/second-slug`);
    expect((await get(`/blogs/${id}/second-slug`)).status).toBe(200);
    await send("PUT", `/api/blog/${id}`, { slug: "" }, headers);
    const back = await get(`/blogs/${id}/second-slug`);
    expect(back.headers.get("Location")).toBe(`/blogs/${id}/the-title-readers-see`);
  });
});

describe("the editor's SEO part", () => {
  it("Write Blogs without JavaScript takes the SEO title, slug and an uploaded social image", async () => {
    const writer = await withSession(await makeUser());
    const res = await postForm(
      "/dashboard/writeBlogs",
      writer,
      {
        title: "Written with a social image",
        category: "Travel",
        date_time: "2026-11-21T10:30",
        tz: "+02:00",
        short_description: "A weekend with one small bag.",
        blog_details: "Packing light changes how you travel.",
        seo_title: "Packing light",
        slug: "packing-light",
        social_image: "https://img.example.com/ignored.png",
      },
      { image: pngFile(), social_image_file: pngFile("social.png") },
    );
    expect(res.status).toBe(302);
    const [stored] = await db().select().from(schema.blogs).where(eq(schema.blogs.slug, "packing-light"));
    expect(stored).toMatchObject({ seoTitle: "Packing light", authorId: writer.id });
    // The file wins over the link beside it, stored through the image service like the cover.
    expect(stored!.socialImage).toMatch(/^\/images\/[0-9a-z]+\.png$/);
    expect(stored!.socialImage).not.toBe(stored!.image);
    const [image] = await db()
      .select()
      .from(schema.images)
      .where(eq(schema.images.key, stored!.socialImage.slice("/images/".length)));
    expect(image?.ownerId).toBe(writer.id);
    const html = await (await get(`/blogs/${stored!.id}/packing-light`)).text();
    expect(html).toContain(`<meta property="og:image" content="https://blog.test${stored!.socialImage}"/>`);
  });

  it("Update Blog shows the stored SEO fields and refuses a taken slug with the field's words", async () => {
    const writer = await withSession(await makeUser());
    const headers = await asUser(writer);
    await send("POST", "/api/blogs", post({ slug: "already-here" }), headers);
    const { insertedId } = await json<{ insertedId: string }>(
      await send("POST", "/api/blogs", post({ seo_title: "Mine", slug: "mine" }), headers),
    );
    const page = await (await getPage(`/dashboard/updateBlog/${insertedId}`, writer)).text();
    expect(page).toMatch(/name="seo_title"[^>]*value="Mine"/);
    expect(page).toMatch(/name="slug"[^>]*value="mine"/);
    expect(page).toContain('name="social_image_file"');
    const res = await postForm(`/dashboard/updateBlog/${insertedId}`, writer, { slug: "already-here" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Another post already uses that slug");
    expect((await row(insertedId)).slug).toBe("mine");
  });
});
