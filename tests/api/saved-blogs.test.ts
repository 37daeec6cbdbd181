import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import type { SavedBlog } from "#worker/services/saved-blogs.ts";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { client } from "../support/client";

const savedBy = (userId: string) => db().select().from(schema.savedBlogs).where(eq(schema.savedBlogs.userId, userId));
const savedOf = (blogId: string) => db().select().from(schema.savedBlogs).where(eq(schema.savedBlogs.blogId, blogId));

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describe("POST /api/save-blogs", () => {
  it("saves a blog into the reader's list and answers 200 success", async () => {
    const author = await makeUser();
    const reader = await makeUser();
    const blog = await makeBlog(author);
    const res = await client(await asUser(reader))["save-blogs"].$post({
      json: { blogId: blog.id, email: reader.email },
    });
    expect(res.status).toBe(200);
    const body = await json<{ success: boolean; insertedId: string }>(res);
    expect(body).toEqual({ success: true, insertedId: expect.stringMatching(/^[0-9a-z]{20}$/) });
    expect(await savedBy(reader.id)).toEqual([
      expect.objectContaining({ id: body.insertedId, blogId: blog.id, userId: reader.id, email: reader.email }),
    ]);
  });

  it("keeps one entry when the same blog is saved twice, and still answers success", async () => {
    const author = await makeUser();
    const reader = await makeUser();
    const blog = await makeBlog(author);
    const headers = await asUser(reader);
    expect((await client(headers)["save-blogs"].$post({ json: { blogId: blog.id, email: reader.email } })).status).toBe(
      200,
    );
    const again = await client(headers)["save-blogs"].$post({ json: { blogId: blog.id, email: reader.email } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ success: true, alreadySaved: true });
    expect(await savedBy(reader.id)).toHaveLength(1);
  });

  it("takes the email from the session when the payload leaves it out, and compares it case-insensitively", async () => {
    const author = await makeUser();
    const reader = await makeUser();
    const [first, second] = [await makeBlog(author), await makeBlog(author)];
    const headers = await asUser(reader);
    expect((await client(headers)["save-blogs"].$post({ json: { blogId: first.id } })).status).toBe(200);
    expect(
      (await client(headers)["save-blogs"].$post({ json: { blogId: second.id, email: reader.email.toUpperCase() } }))
        .status,
    ).toBe(200);
    expect((await savedBy(reader.id)).map((row) => row.email)).toEqual([reader.email, reader.email]);
  });

  it("refuses anonymous callers (401) and saving into someone else's list (403), even for an admin", async () => {
    const author = await makeUser();
    const reader = await makeUser();
    const stranger = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(author);
    const anonymous = await client()["save-blogs"].$post({ json: { blogId: blog.id, email: reader.email } });
    expect(anonymous.status).toBe(401);
    const other = await send(
      "POST",
      "/api/save-blogs",
      { blogId: blog.id, email: reader.email },
      await asUser(stranger),
    );
    expect(other.status).toBe(403);
    expect((await json<ErrorBody>(other)).error.code).toBe("forbidden");
    expect(
      (await client(await asUser(admin))["save-blogs"].$post({ json: { blogId: blog.id, email: reader.email } }))
        .status,
    ).toBe(403);
    expect(await savedOf(blog.id)).toHaveLength(0);
  });

  it("lets an admin save into their own list", async () => {
    const author = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(author);
    const res = await client(await asUser(admin))["save-blogs"].$post({
      json: { blogId: blog.id, email: admin.email },
    });
    expect(res.status).toBe(200);
    expect(await savedBy(admin.id)).toHaveLength(1);
  });

  it("answers 404 for an unknown or malformed blog id", async () => {
    const reader = await makeUser();
    const headers = await asUser(reader);
    const unknown = await send(
      "POST",
      "/api/save-blogs",
      { blogId: "zzzzzzzzzzzzzzzzzzzz", email: reader.email },
      headers,
    );
    expect(unknown.status).toBe(404);
    expect((await json<ErrorBody>(unknown)).error.message).toBe("Blog not found.");
    expect((await send("POST", "/api/save-blogs", { blogId: "../../etc", email: reader.email }, headers)).status).toBe(
      404,
    );
    expect(await savedBy(reader.id)).toHaveLength(0);
  });

  it("answers 400, never 500, for missing fields, wrong types, huge strings and malformed bodies", async () => {
    const reader = await makeUser();
    const headers = await asUser(reader);
    const missing = await send("POST", "/api/save-blogs", {}, headers);
    expect(missing.status).toBe(400);
    expect((await json<ErrorBody>(missing)).error.fields).toEqual({ blogId: "Blog is required." });
    const wrong = await send("POST", "/api/save-blogs", { blogId: 12, email: ["x"] }, headers);
    expect(wrong.status).toBe(400);
    expect((await json<ErrorBody>(wrong)).error.fields).toEqual({
      blogId: "Blog must be text.",
      email: "Email must be text.",
    });
    const huge = await send(
      "POST",
      "/api/save-blogs",
      { blogId: "a".repeat(100_000), email: `${"b".repeat(100_000)}@example.com` },
      headers,
    );
    expect(huge.status).toBe(400);
    expect(Object.keys((await json<ErrorBody>(huge)).error.fields ?? {}).sort()).toEqual(["blogId", "email"]);
    const badEmail = await send("POST", "/api/save-blogs", { blogId: "zzzzzzzzzzzzzzzzzzzz", email: "nope" }, headers);
    expect((await json<ErrorBody>(badEmail)).error.fields).toEqual({ email: "Please enter a valid email" });
    expect((await send("POST", "/api/save-blogs", "{blogId:", headers)).status).toBe(400);
    expect((await send("POST", "/api/save-blogs", "42", headers)).status).toBe(400);
    expect(await savedBy(reader.id)).toHaveLength(0);
  });
});

describe("GET /api/saved-blogs?email", () => {
  it("lists your own entries, newest saved first, each with its blog's card fields", async () => {
    const author = await makeUser({ name: "Card Author" });
    const reader = await makeUser();
    const blogs = [
      await makeBlog(author, { title: "saved first", category: "Travel" }),
      await makeBlog(author, { title: "saved second" }),
      await makeBlog(author, { title: "saved third" }),
    ];
    await makeBlog(author, { title: "never saved" });
    const headers = await asUser(reader);
    for (const blog of blogs)
      await client(headers)["save-blogs"].$post({ json: { blogId: blog.id, email: reader.email } });

    const res = await call(`/api/saved-blogs?email=${encodeURIComponent(reader.email)}`, { headers });
    expect(res.status).toBe(200);
    const entries = await json<SavedBlog[]>(res);
    expect(entries.map((e) => e.blog.title)).toEqual(["saved third", "saved second", "saved first"]);
    const first = blogs[0]!;
    expect(entries[2]).toEqual({
      _id: expect.stringMatching(/^[0-9a-z]{20}$/),
      blogId: first.id,
      email: reader.email,
      blog: {
        _id: first.id,
        title: "saved first",
        image: first.image,
        category: "Travel",
        author_name: "Card Author",
        short_description: first.shortDescription,
      },
    });
  });

  it("compares the email case-insensitively and answers [] for an empty list", async () => {
    const reader = await makeUser();
    const res = await call(`/api/saved-blogs?email=${encodeURIComponent(reader.email.toUpperCase())}`, {
      headers: await asUser(reader),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it("drops entries whose blog was deleted", async () => {
    const author = await makeUser();
    const reader = await makeUser();
    const blog = await makeBlog(author);
    const headers = await asUser(reader);
    await client(headers)["save-blogs"].$post({ json: { blogId: blog.id } });
    await call(`/api/blogs/${blog.id}`, { method: "DELETE", headers: await asUser(author) });
    expect(
      await (await call(`/api/saved-blogs?email=${encodeURIComponent(reader.email)}`, { headers })).json(),
    ).toEqual([]);
  });

  it("refuses anonymous callers (401) and other users (403), and lets an admin read anyone's list", async () => {
    const author = await makeUser();
    const reader = await makeUser();
    const stranger = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(author);
    await client(await asUser(reader))["save-blogs"].$post({ json: { blogId: blog.id } });
    const path = `/api/saved-blogs?email=${encodeURIComponent(reader.email)}`;
    expect((await call(path)).status).toBe(401);
    const other = await call(path, { headers: await asUser(stranger) });
    expect(other.status).toBe(403);
    expect((await json<ErrorBody>(other)).error.code).toBe("forbidden");
    const asAdmin = await call(path, { headers: await asUser(admin) });
    expect(asAdmin.status).toBe(200);
    expect((await json<SavedBlog[]>(asAdmin)).map((e) => e.blogId)).toEqual([blog.id]);
  });

  it("answers 400 for a missing, invalid or huge email", async () => {
    const reader = await makeUser();
    const headers = await asUser(reader);
    const missing = await call("/api/saved-blogs", { headers });
    expect(missing.status).toBe(400);
    expect((await json<ErrorBody>(missing)).error.fields).toEqual({ email: "Email is required." });
    expect((await call("/api/saved-blogs?email=not-an-email", { headers })).status).toBe(400);
    expect((await call(`/api/saved-blogs?email=${"x".repeat(100_000)}`, { headers })).status).toBe(400);
  });
});
