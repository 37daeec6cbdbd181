import { beforeAll, describe, expect, it } from "vitest";
import type { Blog } from "#worker/services/blogs/model.ts";
import { clearContent, makeBlog, makeUser } from "../support/factories";
import { json } from "../support/http";
import { client } from "../support/client";

describe("blogs API (read side)", () => {
  let ids: string[] = [];

  beforeAll(async () => {
    await clearContent();
    const author = await makeUser({ name: "Grace" });
    ids = [];
    for (let day = 1; day <= 7; day++) {
      const blog = await makeBlog(author, {
        title: `Post ${day}`,
        dateTime: new Date(Date.UTC(2026, 1, day)).toISOString(),
      });
      ids.push(blog.id);
    }
  });

  it("GET /api/latest-blogs lists the newest first with the contract's fields", async () => {
    const res = await client()["latest-blogs"].$get();
    expect(res.status).toBe(200);
    const blogs = await json<Blog[]>(res);
    expect(blogs.map((b) => b.title)).toEqual(["Post 7", "Post 6", "Post 5", "Post 4", "Post 3", "Post 2"]);
    expect(Object.keys(blogs[0]!).sort()).toEqual(
      [
        "_id",
        "author_id",
        "author_image",
        "author_name",
        "blog_details",
        "category",
        // The writer's own slug for the readable link ("" when the title's is used).
        "custom_slug",
        "date_time",
        "email",
        // Added by the newsletter work: whether the post was mailed to subscribers.
        "email_subscribers",
        // Chosen by an admin for the home page's Featured Blogs.
        "featured",
        "image",
        "likes",
        // The optional SEO fields.
        "meta_description",
        // Whether the newsletter mails the teaser or the whole post ("" for the site's default).
        "newsletter_audience",
        "newsletter_content",
        "publish_at",
        "seo_title",
        "short_description",
        // The readable link's slug (/blogs/{_id}/{slug}).
        "slug",
        "social_image",
        "status",
        // Up to five free tags.
        "tags",
        "title",
        // When it was last saved (the editor's local draft compares it).
        "updated_at",
        // Paid memberships: who reads it in full, and whether this answer carries all of it.
        "visibility",
        "access",
      ].sort(),
    );
    // Beyond the spec: every public answer is a published post with no pending schedule.
    expect(blogs.every((b) => b.status === "published" && b.publish_at === null)).toBe(true);
  });

  it("GET /api/blogs without paging parameters answers the first page, newest first (decision 023)", async () => {
    const res = await client().blogs.$get({ query: {} });
    const list = await json<Blog[]>(res);
    // The seven fit the first page (20): the spec's client still sees every post of a demo-sized site.
    expect(list.map((b) => b.title)).toEqual(["Post 7", "Post 6", "Post 5", "Post 4", "Post 3", "Post 2", "Post 1"]);
    expect(res.headers.get("X-Total-Count")).toBe("7");
    expect(res.headers.get("Link")).toBe(
      '</api/blogs?page=1&limit=20>; rel="first", </api/blogs?page=1&limit=20>; rel="last"',
    );
  });

  it("GET /api/blogs?page&limit answers one page and X-Total-Count", async () => {
    const res = await client().blogs.$get({ query: { page: "2", limit: "3" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe("7");
    expect((await json<Blog[]>(res)).map((b) => b.title)).toEqual(["Post 4", "Post 3", "Post 2"]);
  });

  it("GET /api/blogs/{id} answers one blog, and a JSON 404 for an unknown id", async () => {
    const ok = await client().blogs[":id"].$get({ param: { id: ids[0]! } });
    expect((await json<Blog>(ok)).title).toBe("Post 1");
    const missing = await client().blogs[":id"].$get({ param: { id: "doesnotexist123" } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: "not-found", message: "Blog not found." } });
  });
});
