import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { getPage, withSession } from "../support/pages";

const services = () => createServices(env);
const actor = (u: { id: string; name: string; email: string }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: "user",
  photoURL: null,
});
const tagRows = async (blogId: string) =>
  (await db().select().from(schema.blogTags).where(eq(schema.blogTags.blogId, blogId))).map((r) => r.tag).sort();

describe("revisions keep tags and the SEO fields", () => {
  it("a save that changes only tags or SEO fields keeps a revision of them, and a restore brings them back", async () => {
    const writer = await makeUser({ name: "Tess Tags" });
    const w = actor(writer);
    const blog = await makeBlog(writer, { title: "Tagged" });
    await services().blogs.update(w, blog.id, {
      tags: "edge, cache",
      seo_title: "First SEO title",
      slug: "first-link",
      meta_description: "First description.",
      social_image: "https://img.example.com/first.png",
    });
    // Only tags and SEO fields change: before this, such a save kept no revision.
    await services().blogs.update(w, blog.id, {
      tags: "workers",
      seo_title: "Second SEO title",
      slug: "second-link",
      meta_description: "",
      social_image: "",
    });
    const { revisions, blog: now } = await services().blogs.revisions(w, blog.id);
    expect(now).toMatchObject({ tags: ["workers"], seo_title: "Second SEO title", custom_slug: "second-link" });
    expect(revisions).toHaveLength(2);
    expect(revisions[0]).toMatchObject({
      tags: ["edge", "cache"],
      seo_title: "First SEO title",
      custom_slug: "first-link",
      meta_description: "First description.",
      social_image: "https://img.example.com/first.png",
    });
    expect(revisions[1]).toMatchObject({ tags: [], seo_title: "", custom_slug: "" });

    await services().blogs.restoreRevision(w, blog.id, revisions[0]!._id);
    const restored = await services().blogs.byId(blog.id, w);
    expect(restored).toMatchObject({
      tags: ["edge", "cache"],
      seo_title: "First SEO title",
      slug: "first-link",
      meta_description: "First description.",
      social_image: "https://img.example.com/first.png",
    });
    // The tag pages' rows follow the restored tags.
    expect(await tagRows(blog.id)).toEqual(["cache", "edge"]);
  });

  it("a restore refuses a slug another post took since", async () => {
    const writer = await makeUser();
    const w = actor(writer);
    const blog = await makeBlog(writer);
    await services().blogs.update(w, blog.id, { slug: "wanted-link" });
    await services().blogs.update(w, blog.id, { slug: "" });
    const other = await makeBlog(writer);
    await services().blogs.update(w, other.id, { slug: "wanted-link" });
    const { revisions } = await services().blogs.revisions(w, blog.id);
    await expect(services().blogs.restoreRevision(w, blog.id, revisions[0]!._id)).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it("the revisions page shows what changed in the tags and SEO fields", async () => {
    const writer = await withSession(await makeUser());
    const blog = await makeBlog(writer, { title: "Shown" });
    await services().blogs.update(actor(writer), blog.id, { tags: "alpha", seo_title: "Old words" });
    await services().blogs.update(actor(writer), blog.id, { tags: "beta", seo_title: "New words" });
    const html = await (await getPage(`/dashboard/blogs/${blog.id}/revisions`, writer)).text();
    expect(html).toMatch(/data-field="tags"[\s\S]*<del[^>]*>alpha<\/del>[\s\S]*<ins[^>]*>beta<\/ins>/);
    expect(html).toMatch(/data-field="seo_title"[\s\S]*<del[^>]*>Old<\/del>[\s\S]*<ins[^>]*>New<\/ins>/);
    expect(html).toContain("SEO title");
    // An SEO field that is empty and unchanged says nothing.
    expect(html).not.toContain('data-field="meta_description"');
  });
});
