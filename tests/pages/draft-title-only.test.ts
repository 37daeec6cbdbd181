import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { INCOMPLETE_POST } from "#worker/services/blogs/input.ts";
import { asUser, db, makeUser } from "../support/factories";
import { flashOf } from "../support/flash";
import { call, json, send } from "../support/http";
import { getPage, postForm } from "../support/pages";

const blogRow = (id: string) => db().query.blogs.findFirst({ where: eq(schema.blogs.id, id) });
const ownRow = (authorId: string) => db().query.blogs.findFirst({ where: eq(schema.blogs.authorId, authorId) });

type ErrorBody = { error: { code?: string; message: string; fields?: Record<string, string> } };

/** A draft needs only a title; everything else is required only to publish or schedule. */
describe("a draft needs only a title (REST)", () => {
  it("stores a title-only draft, refuses to publish it with the missing fields named, and publishes it once complete", async () => {
    const writer = await makeUser();
    const headers = await asUser(writer);
    const created = await send("POST", "/api/blogs", { title: "Just a title", status: "draft" }, headers);
    expect(created.status, await created.clone().text()).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(created);
    const row = await blogRow(insertedId);
    expect(row).toMatchObject({ title: "Just a title", status: "draft", category: "", image: "", blogDetails: "" });
    // Its date and time is the moment it was saved.
    expect(Math.abs(Date.parse(row!.dateTime) - Date.now())).toBeLessThan(60_000);
    // The writer reads it back through the API; nobody else sees it.
    expect((await call(`/api/blogs/${insertedId}`, { headers })).status).toBe(200);
    expect((await call(`/api/blogs/${insertedId}`)).status).toBe(404);

    const publish = await send("PUT", `/api/blog/${insertedId}`, { status: "published" }, headers);
    expect(publish.status).toBe(400);
    const body = await json<ErrorBody>(publish);
    expect(body.error.message).toBe(INCOMPLETE_POST);
    expect(body.error.fields).toEqual({
      category: "Category is required.",
      short_description: "Short description is required.",
      blog_details: "Blog details is required.",
      image: "Image is required.",
    });
    expect(await blogRow(insertedId)).toMatchObject({ status: "draft" });
    // Scheduling is publishing later: the same fields are needed.
    const schedule = await send(
      "PUT",
      `/api/blog/${insertedId}`,
      { status: "scheduled", date_time: new Date(Date.now() + 3_600_000).toISOString(), category: "Travel" },
      headers,
    );
    expect(schedule.status).toBe(400);
    expect(Object.keys((await json<ErrorBody>(schedule)).error.fields ?? {}).sort()).toEqual([
      "blog_details",
      "image",
      "short_description",
    ]);

    const complete = await send(
      "PUT",
      `/api/blog/${insertedId}`,
      {
        status: "published",
        category: "Travel",
        short_description: "Now it has one.",
        blog_details: "And words.",
        image: "https://example.com/cover.png",
      },
      headers,
    );
    expect(complete.status, await complete.clone().text()).toBe(200);
    expect(await blogRow(insertedId)).toMatchObject({ status: "published", category: "Travel" });
    expect((await call(`/api/blogs/${insertedId}`)).status).toBe(200);
  });

  it("still refuses a draft without a title, and a post to publish without its fields (the spec's contract)", async () => {
    const writer = await makeUser();
    const headers = await asUser(writer);
    const untitled = await send("POST", "/api/blogs", { status: "draft", category: "Travel" }, headers);
    expect(untitled.status).toBe(400);
    expect((await json<ErrorBody>(untitled)).error.fields).toEqual({ title: "Title is required." });
    const published = await send("POST", "/api/blogs", { title: "Straight out" }, headers);
    expect(published.status).toBe(400);
    expect(Object.keys((await json<ErrorBody>(published)).error.fields ?? {}).sort()).toEqual([
      "blog_details",
      "category",
      "date_time",
      "image",
      "short_description",
    ]);
    expect(await ownRow(writer.id)).toBeUndefined();
  });
});

describe("a draft needs only a title (forms)", () => {
  it("Save draft on Write Blogs with only a title is stored; Post Blog with only a title names the missing fields", async () => {
    const writer = await makeUser();
    const refused = await postForm("/dashboard/writeBlogs", writer, { title: "Only a title" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Category is required.");
    expect(html).toContain("Short description is required.");
    expect(await ownRow(writer.id)).toBeUndefined();

    const saved = await postForm("/dashboard/writeBlogs", writer, { title: "Only a title", status: "draft" });
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect(flashOf(saved)).toMatchObject({ title: "Draft Saved!" });
    const row = await ownRow(writer.id);
    expect(row).toMatchObject({ title: "Only a title", status: "draft", image: "" });
    // Its edit form and the writer's lists draw it without a cover.
    expect((await getPage(`/dashboard/updateBlog/${row!.id}`, writer)).status).toBe(200);
    expect((await getPage("/dashboard/myBlog", writer)).status).toBe(200);
    expect((await getPage(`/blogs/${row!.id}`, writer)).status).toBeLessThan(400);

    // Publish now from Update Blog: refused beside each missing field, still a draft.
    const publish = await postForm(`/dashboard/updateBlog/${row!.id}`, writer, { status: "published" });
    expect(publish.status).toBe(400);
    const page = await publish.text();
    expect(page).toContain("Image is required.");
    expect(page).toContain("Blog details is required.");
    expect(await blogRow(row!.id)).toMatchObject({ status: "draft" });
  });

  it("Save draft skips the browser's required checks; Post Blog keeps them", async () => {
    const writer = await makeUser();
    const html = await (await getPage("/dashboard/writeBlogs", writer)).text();
    expect(html).toMatch(
      /<button[^>]*value="draft"[^>]*formNoValidate=""|<button[^>]*formNoValidate=""[^>]*value="draft"/i,
    );
    expect(html).not.toMatch(/<button[^>]*value="scheduled"[^>]*formNoValidate/i);
  });
});
