import { beforeAll, describe, expect, it } from "vitest";
import type { Blog } from "#worker/services/blogs/model.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { asUser, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";

const post = (overrides: Record<string, unknown> = {}) => ({
  title: "SEO fields at work",
  short_description: "The short description.",
  blog_details: "Body.",
  category: "Technology",
  date_time: "2026-02-02T10:00",
  image: "https://img.example.com/cover.png",
  ...overrides,
});
const html = async (id: string, title: string) =>
  (await call(postPath({ id, title }), { headers: { Accept: "text/html" } })).text();

describe("a post's optional SEO fields", () => {
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await asUser(await makeUser());
  });

  it("uses the meta description and social image when set", async () => {
    const res = await send(
      "POST",
      "/api/blogs",
      post({ meta_description: "What search engines show.", social_image: "https://img.example.com/social.png" }),
      headers,
    );
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    const record = await json<Blog>(await call(`/api/blogs/${insertedId}`));
    expect(record).toMatchObject({
      meta_description: "What search engines show.",
      social_image: "https://img.example.com/social.png",
    });
    const page = await html(insertedId, "SEO fields at work");
    expect(page).toContain('<meta name="description" content="What search engines show."/>');
    expect(page).toContain('<meta property="og:image" content="https://img.example.com/social.png"/>');
    expect(page).toContain('"description":"What search engines show."');
  });

  it("falls back to the short description and the post's share card when they are empty", async () => {
    const res = await send("POST", "/api/blogs", post({ title: "No SEO fields" }), headers);
    const { insertedId } = await json<{ insertedId: string }>(res);
    const page = await html(insertedId, "No SEO fields");
    expect(page).toContain('<meta name="description" content="The short description."/>');
    expect(page).toContain(`<meta property="og:image" content="https://blog.test/blogs/${insertedId}/og.png"/>`);
    expect(page).toContain('"image":["https://img.example.com/cover.png"]');
    // An edit can set and then clear them ("" clears; leaving the field out keeps it).
    await send("PUT", `/api/blog/${insertedId}`, { meta_description: "Set later." }, headers);
    expect(await html(insertedId, "No SEO fields")).toContain('content="Set later."');
    await send("PUT", `/api/blog/${insertedId}`, { meta_description: "" }, headers);
    expect(await html(insertedId, "No SEO fields")).toContain(
      '<meta name="description" content="The short description."/>',
    );
  });

  it("refuses a social image that is not a link and a meta description over 160 characters", async () => {
    for (const bad of [{ social_image: "javascript:alert(1)" }, { meta_description: "x".repeat(161) }]) {
      const res = await send("POST", "/api/blogs", post({ title: "Refused SEO", ...bad }), headers);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      const fields = (await json<{ error: { fields: Record<string, string> } }>(res)).error.fields;
      expect(Object.keys(fields)).toEqual(Object.keys(bad));
    }
  });
});
