import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import type { Blog } from "#worker/services/blogs/model.ts";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";

const storedBlog = (id: string) => db().query.blogs.findFirst({ where: eq(schema.blogs.id, id) });
const blogsBy = (authorId: string) => db().select().from(schema.blogs).where(eq(schema.blogs.authorId, authorId));

const validBlog = () => ({
  title: "Edge caching in practice",
  short_description: "What we learned putting pages at the edge.",
  blog_details: "First paragraph.\n\nSecond paragraph.",
  category: "Technology",
  date_time: "2026-11-21T10:30",
  image: "https://img.example.com/cover.png",
});

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describe("POST /api/blogs", () => {
  it("creates a blog whose author fields come from the session, with 0 likes and a normalized date", async () => {
    const writer = await makeUser({ name: "Ada Writer", photoUrl: "https://img.example.com/ada.png" });
    const res = await send(
      "POST",
      "/api/blogs",
      { ...validBlog(), author_name: "Someone Else", email: "mallory@example.com", likes: 999 },
      await asUser(writer),
    );
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    expect(insertedId).toMatch(/^[0-9a-z]{20}$/);
    expect(await storedBlog(insertedId)).toMatchObject({
      authorId: writer.id,
      authorName: "Ada Writer",
      email: writer.email,
      authorImage: "https://img.example.com/ada.png",
      likes: 0,
      dateTime: "2026-11-21T10:30:00.000Z",
      title: "Edge caching in practice",
      category: "Technology",
      image: "https://img.example.com/cover.png",
    });
  });

  it("accepts full ISO date-times with zones and stores them in UTC", async () => {
    const writer = await makeUser();
    const headers = await asUser(writer);
    for (const [sent, stored] of [
      ["2026-11-21T10:30:00+02:00", "2026-11-21T08:30:00.000Z"],
      ["2026-11-21T10:30:15.5Z", "2026-11-21T10:30:15.500Z"],
      ["2028-02-29T23:59:59-05:30", "2028-03-01T05:29:59.000Z"],
    ] as const) {
      const res = await send("POST", "/api/blogs", { ...validBlog(), date_time: sent }, headers);
      expect(res.status).toBe(201);
      const { insertedId } = await json<{ insertedId: string }>(res);
      expect((await storedBlog(insertedId))?.dateTime).toBe(stored);
    }
  });

  it("accepts our own uploaded image paths", async () => {
    const writer = await makeUser();
    const res = await send(
      "POST",
      "/api/blogs",
      { ...validBlog(), image: "/images/abcdefgh1234.webp" },
      await asUser(writer),
    );
    expect(res.status).toBe(201);
  });

  it("lets an admin write too, under the admin's own name", async () => {
    const admin = await makeUser({ role: "admin", name: "The Admin" });
    const res = await send("POST", "/api/blogs", validBlog(), await asUser(admin));
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    expect(await storedBlog(insertedId)).toMatchObject({ authorId: admin.id, authorName: "The Admin" });
  });

  it("refuses anonymous writers with 401 and stores nothing", async () => {
    const title = `anonymous ${crypto.randomUUID()}`;
    const res = await send("POST", "/api/blogs", { ...validBlog(), title });
    expect(res.status).toBe(401);
    expect((await json<ErrorBody>(res)).error.code).toBe("unauthorized");
    expect(await db().select().from(schema.blogs).where(eq(schema.blogs.title, title))).toHaveLength(0);
  });

  it("names every missing field", async () => {
    const writer = await makeUser();
    const res = await send("POST", "/api/blogs", {}, await asUser(writer));
    expect(res.status).toBe(400);
    const body = await json<ErrorBody>(res);
    expect(body.error.code).toBe("validation-failed");
    expect(body.error.fields).toEqual({
      title: "Title is required.",
      short_description: "Short description is required.",
      blog_details: "Blog details is required.",
      category: "Category is required.",
      date_time: "Date and time is required.",
      image: "Image is required.",
    });
    expect(await blogsBy(writer.id)).toHaveLength(0);
  });

  it("treats blank fields as missing", async () => {
    const writer = await makeUser();
    const res = await send(
      "POST",
      "/api/blogs",
      { title: "  ", short_description: "", blog_details: "", category: "", date_time: " ", image: "" },
      await asUser(writer),
    );
    expect(res.status).toBe(400);
    expect(
      Object.values((await json<ErrorBody>(res)).error.fields ?? {}).every((m) => m.endsWith("is required.")),
    ).toBe(true);
  });

  it("refuses bad values with one message per field", async () => {
    const writer = await makeUser();
    const res = await send(
      "POST",
      "/api/blogs",
      {
        ...validBlog(),
        category: "Cooking",
        date_time: "2026-02-30T10:00",
        image: "javascript:alert(1)",
        title: "x".repeat(151),
      },
      await asUser(writer),
    );
    expect(res.status).toBe(400);
    expect((await json<ErrorBody>(res)).error.fields).toEqual({
      title: "Title must be at most 150 characters.",
      category:
        "Category must be one of: Technology, Travel, Health, Finance, AI, Education, Business, Science, Marketing, Lifestyle.",
      date_time: "Date and time must be a date and time like 2026-11-21T10:30.",
      image: "Image must be an http(s) link or an uploaded image.",
    });
    expect(await blogsBy(writer.id)).toHaveLength(0);
  });

  it("refuses impossible or free-form dates", async () => {
    const writer = await makeUser();
    const headers = await asUser(writer);
    for (const date_time of [
      "yesterday",
      "2026-13-01T10:00",
      "2027-02-29T10:00",
      "2026-11-21",
      "2026-11-21T24:00",
      "2026-11-21T10:30+25:00",
      "9999-12-31T23:59-12:00",
    ]) {
      const res = await send("POST", "/api/blogs", { ...validBlog(), date_time }, headers);
      expect(res.status, date_time).toBe(400);
      expect(Object.keys((await json<ErrorBody>(res)).error.fields ?? {})).toEqual(["date_time"]);
    }
    expect(await blogsBy(writer.id)).toHaveLength(0);
  });

  it("answers 400, never 500, for wrong types, huge strings and malformed bodies", async () => {
    const writer = await makeUser();
    const headers = await asUser(writer);
    const huge = "x".repeat(100_000);
    const wrongTypes = await send(
      "POST",
      "/api/blogs",
      {
        title: 42,
        short_description: ["a"],
        blog_details: { a: 1 },
        category: 7,
        date_time: 1_700_000_000,
        image: false,
      },
      headers,
    );
    expect(wrongTypes.status).toBe(400);
    expect((await json<ErrorBody>(wrongTypes)).error.fields).toMatchObject({
      title: "Title must be text.",
      short_description: "Short description must be text.",
      blog_details: "Blog details must be text.",
      date_time: "Date and time must be text.",
      image: "Image must be a link.",
    });
    for (const field of ["title", "short_description", "blog_details", "category", "date_time", "image"]) {
      const res = await send("POST", "/api/blogs", { ...validBlog(), [field]: huge }, headers);
      expect(res.status, field).toBe(400);
      expect(Object.keys((await json<ErrorBody>(res)).error.fields ?? {})).toEqual([field]);
    }
    const badJson = await send("POST", "/api/blogs", '{"title": ', headers);
    expect(badJson.status).toBe(400);
    expect((await json<ErrorBody>(badJson)).error.code).toBe("invalid-json");
    expect((await send("POST", "/api/blogs", "[1,2]", headers)).status).toBe(400);
    expect((await send("POST", "/api/blogs", "null", headers)).status).toBe(400);
    const asForm = await call("/api/blogs", { method: "POST", headers, body: new URLSearchParams(validBlog()) });
    expect(asForm.status).toBe(415);
    expect(await blogsBy(writer.id)).toHaveLength(0);
  });
});

describe("GET /api/blog?email and GET /api/blog/{id}", () => {
  it("lists an author's blogs newest first, comparing emails case-insensitively, to the writer (decision 048)", async () => {
    const author = await makeUser();
    const other = await makeUser();
    await makeBlog(author, { title: "older", dateTime: "2026-01-01T09:00:00.000Z" });
    await makeBlog(author, { title: "newest", dateTime: "2026-03-01T09:00:00.000Z" });
    await makeBlog(author, { title: "middle", dateTime: "2026-02-01T09:00:00.000Z" });
    await makeBlog(other, { title: "not theirs" });
    const res = await call(`/api/blog?email=${encodeURIComponent(author.email.toUpperCase())}`, {
      headers: await asUser(author),
    });
    expect(res.status).toBe(200);
    const blogs = await json<Blog[]>(res);
    expect(blogs.map((b) => b.title)).toEqual(["newest", "middle", "older"]);
    expect(blogs.every((b) => b.email === author.email)).toBe(true);
  });

  it("answers an empty list for an author without blogs", async () => {
    const res = await call("/api/blog?email=nobody-at-all@example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it("answers 400 for a missing, invalid or huge email", async () => {
    const missing = await call("/api/blog");
    expect(missing.status).toBe(400);
    expect((await json<ErrorBody>(missing)).error.fields).toEqual({ email: "Email is required." });
    const invalid = await call("/api/blog?email=not-an-email");
    expect(invalid.status).toBe(400);
    expect((await json<ErrorBody>(invalid)).error.fields).toEqual({ email: "Please enter a valid email" });
    expect((await call(`/api/blog?email=${"a".repeat(100_000)}@example.com`)).status).toBe(400);
  });

  it("answers one blog to anyone, and 404 for unknown or malformed ids", async () => {
    const author = await makeUser();
    const blog = await makeBlog(author, { title: "the preload" });
    const res = await call(`/api/blog/${blog.id}`);
    expect(res.status).toBe(200);
    // A visitor reads the writer's public contact address, none by default (decision 048).
    expect(await json<Blog>(res)).toMatchObject({ _id: blog.id, title: "the preload", email: "", likes: 0 });
    expect((await call("/api/blog/zzzzzzzzzzzzzzzzzzzz")).status).toBe(404);
    expect((await call(`/api/blog/${"%27%3B".repeat(50)}`)).status).toBe(404);
  });
});

describe("PUT /api/blog/{id} (own-blog edit)", () => {
  it("lets the author change fields, keeping empty and missing ones", async () => {
    const author = await makeUser();
    const blog = await makeBlog(author);
    const res = await send(
      "PUT",
      `/api/blog/${blog.id}`,
      {
        title: "A better title",
        short_description: "",
        blog_details: "   ",
        category: "Travel",
        date_time: "2026-05-01T08:00",
      },
      await asUser(author),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ modifiedCount: 1 });
    const after = await storedBlog(blog.id);
    expect(after).toMatchObject({
      title: "A better title",
      category: "Travel",
      dateTime: "2026-05-01T08:00:00.000Z",
      shortDescription: blog.shortDescription,
      blogDetails: blog.blogDetails,
      image: blog.image,
    });
  });

  it("never changes the author, email or likes, whatever the payload says", async () => {
    const author = await makeUser();
    const blog = await makeBlog(author, { likes: 3 });
    const res = await send(
      "PUT",
      `/api/blog/${blog.id}`,
      {
        author_name: "Mallory",
        email: "mallory@example.com",
        likes: 1000,
        author_image: "https://evil.example.com/x.png",
      },
      await asUser(author),
    );
    expect(await res.json()).toEqual({ modifiedCount: 0 });
    expect(await storedBlog(blog.id)).toMatchObject({
      authorName: author.name,
      email: author.email,
      likes: 3,
      authorImage: null,
    });
  });

  it("answers modifiedCount 0 without writing when nothing changes", async () => {
    const author = await makeUser();
    const blog = await makeBlog(author, { dateTime: "2026-04-01T10:00:00.000Z" });
    const before = await storedBlog(blog.id);
    const headers = await asUser(author);
    for (const payload of [
      {},
      { title: "", short_description: "", category: "", date_time: "", image: "" },
      { title: blog.title, category: blog.category, date_time: "2026-04-01T10:00", image: blog.image },
    ]) {
      const res = await send("PUT", `/api/blog/${blog.id}`, payload, headers);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ modifiedCount: 0 });
    }
    expect(await storedBlog(blog.id)).toEqual(before);
  });

  it("refuses anonymous callers (401) and other users (403), changing nothing", async () => {
    const author = await makeUser();
    const stranger = await makeUser();
    const blog = await makeBlog(author);
    const before = await storedBlog(blog.id);
    const anonymous = await send("PUT", `/api/blog/${blog.id}`, { title: "hijacked" });
    expect(anonymous.status).toBe(401);
    const other = await send("PUT", `/api/blog/${blog.id}`, { title: "hijacked" }, await asUser(stranger));
    expect(other.status).toBe(403);
    expect((await json<ErrorBody>(other)).error.code).toBe("forbidden");
    expect(await storedBlog(blog.id)).toEqual(before);
  });

  it("lets an admin edit anyone's blog", async () => {
    const author = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(author);
    const res = await send("PUT", `/api/blog/${blog.id}`, { title: "Edited by admin" }, await asUser(admin));
    expect(await res.json()).toEqual({ modifiedCount: 1 });
    expect(await storedBlog(blog.id)).toMatchObject({
      title: "Edited by admin",
      authorId: author.id,
      authorName: author.name,
    });
  });

  it("validates the fields it is given, and answers 400 for malformed bodies", async () => {
    const author = await makeUser();
    const blog = await makeBlog(author);
    const before = await storedBlog(blog.id);
    const headers = await asUser(author);
    const res = await send(
      "PUT",
      `/api/blog/${blog.id}`,
      {
        category: "Cooking",
        date_time: "soon",
        image: "ftp://files.example.com/a.png",
        blog_details: "x".repeat(100_000),
        title: 5,
      },
      headers,
    );
    expect(res.status).toBe(400);
    expect(Object.keys((await json<ErrorBody>(res)).error.fields ?? {}).sort()).toEqual(
      ["blog_details", "category", "date_time", "image", "title"].sort(),
    );
    expect((await send("PUT", `/api/blog/${blog.id}`, "not json", headers)).status).toBe(400);
    expect((await send("PUT", `/api/blog/${blog.id}`, '"a string"', headers)).status).toBe(400);
    expect(await storedBlog(blog.id)).toEqual(before);
  });

  it("answers 404 for unknown or malformed ids", async () => {
    const author = await makeUser();
    const headers = await asUser(author);
    expect((await send("PUT", "/api/blog/zzzzzzzzzzzzzzzzzzzz", { title: "x" }, headers)).status).toBe(404);
    expect((await send("PUT", "/api/blog/NOT-AN-ID!", { title: "x" }, headers)).status).toBe(404);
  });
});

describe("PUT /api/blogs/{id} (admin edit)", () => {
  it("lets an admin change any blog, and answers 0 when nothing changed", async () => {
    const author = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(author);
    const headers = await asUser(admin);
    const res = await send(
      "PUT",
      `/api/blogs/${blog.id}`,
      { category: "Science", image: "/images/abcdefgh1234.png" },
      headers,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ modifiedCount: 1 });
    expect(await storedBlog(blog.id)).toMatchObject({
      category: "Science",
      image: "/images/abcdefgh1234.png",
      email: author.email,
    });
    expect(await (await send("PUT", `/api/blogs/${blog.id}`, { category: "Science" }, headers)).json()).toEqual({
      modifiedCount: 0,
    });
  });

  it("refuses anonymous callers (401), and every non-admin including the author (403), changing nothing", async () => {
    const author = await makeUser();
    const stranger = await makeUser();
    const blog = await makeBlog(author);
    const before = await storedBlog(blog.id);
    expect((await send("PUT", `/api/blogs/${blog.id}`, { title: "x" })).status).toBe(401);
    expect((await send("PUT", `/api/blogs/${blog.id}`, { title: "x" }, await asUser(author))).status).toBe(403);
    expect((await send("PUT", `/api/blogs/${blog.id}`, { title: "x" }, await asUser(stranger))).status).toBe(403);
    expect(await storedBlog(blog.id)).toEqual(before);
  });

  it("answers 404 for an unknown id and 400 for bad fields", async () => {
    const admin = await makeUser({ role: "admin" });
    const headers = await asUser(admin);
    expect((await send("PUT", "/api/blogs/zzzzzzzzzzzzzzzzzzzz", { title: "x" }, headers)).status).toBe(404);
    const author = await makeUser();
    const blog = await makeBlog(author);
    const res = await send("PUT", `/api/blogs/${blog.id}`, { short_description: "y".repeat(100_000) }, headers);
    expect(res.status).toBe(400);
    expect((await json<ErrorBody>(res)).error.fields).toEqual({
      short_description: "Short description must be at most 300 characters.",
    });
  });
});

describe("DELETE /api/blogs/{id}", () => {
  it("lets the author delete their blog, then answers 404", async () => {
    const author = await makeUser();
    const blog = await makeBlog(author);
    const headers = await asUser(author);
    const res = await call(`/api/blogs/${blog.id}`, { method: "DELETE", headers });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deletedCount: 1 });
    expect(await storedBlog(blog.id)).toBeUndefined();
    expect((await call(`/api/blogs/${blog.id}`, { method: "DELETE", headers })).status).toBe(404);
  });

  it("lets an admin delete anyone's blog", async () => {
    const author = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(author);
    const res = await call(`/api/blogs/${blog.id}`, { method: "DELETE", headers: await asUser(admin) });
    expect(await res.json()).toEqual({ deletedCount: 1 });
    expect(await storedBlog(blog.id)).toBeUndefined();
  });

  it("refuses anonymous callers (401) and other users (403), deleting nothing", async () => {
    const author = await makeUser();
    const stranger = await makeUser();
    const blog = await makeBlog(author);
    expect((await call(`/api/blogs/${blog.id}`, { method: "DELETE" })).status).toBe(401);
    expect((await call(`/api/blogs/${blog.id}`, { method: "DELETE", headers: await asUser(stranger) })).status).toBe(
      403,
    );
    expect(await storedBlog(blog.id)).toBeDefined();
  });

  it("answers 404 for unknown or malformed ids", async () => {
    const admin = await makeUser({ role: "admin" });
    const headers = await asUser(admin);
    expect((await call("/api/blogs/zzzzzzzzzzzzzzzzzzzz", { method: "DELETE", headers })).status).toBe(404);
    expect((await call(`/api/blogs/${"x".repeat(5000)}`, { method: "DELETE", headers })).status).toBe(404);
  });
});
