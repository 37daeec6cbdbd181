import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { call } from "../support/http";

type Who = { id: string; email: string } | null;
const cookieFor = async (who: Who): Promise<Record<string, string>> =>
  who ? { Cookie: `__Host-session=${await sessionFor(who)}` } : {};

async function get(path: string, who: Who) {
  return call(path, { headers: { Accept: "text/html", ...(await cookieFor(who)) }, redirect: "manual" });
}

async function post(path: string, who: Who, fields: Record<string, string>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return call(path, {
    method: "POST",
    body,
    headers: { Accept: "text/html", ...(await cookieFor(who)) },
    redirect: "manual",
  });
}

const row = async (id: string) => (await db().select().from(schema.blogs).where(eq(schema.blogs.id, id)))[0]!;
const history = (id: string) =>
  db()
    .select()
    .from(schema.blogRevisions)
    .where(eq(schema.blogRevisions.blogId, id))
    .orderBy(schema.blogRevisions.createdAt);

describe("revisions page", () => {
  it("edits through Update Blog keep revisions; the page lists and compares them; restore works without JS", async () => {
    const writer = await makeUser({ name: "Page Writer" });
    const blog = await makeBlog(writer, { title: "Original", blogDetails: "Alpha beta gamma." });
    for (const blog_details of ["Alpha delta gamma.", "Alpha delta epsilon."]) {
      const body = new FormData();
      body.append("blog_details", blog_details);
      const res = await call(`/dashboard/updateBlog/${blog.id}`, {
        method: "POST",
        body,
        headers: { Accept: "text/html", ...(await cookieFor(writer)) },
        redirect: "manual",
      });
      expect(res.status).toBeLessThan(400);
    }
    const revs = await history(blog.id);
    expect(revs.map((r) => r.blogDetails)).toEqual(["Alpha beta gamma.", "Alpha delta gamma."]);

    const page = await get(`/dashboard/blogs/${blog.id}/revisions?from=${revs[0]!.id}&to=current`, writer);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toMatch(/private|no-store/);
    const html = await page.text();
    expect(html).toContain("Replaced");
    expect(html).toContain("Page Writer");
    expect(html).toMatch(/<del[^>]*>beta<\/del>/);
    expect(html).toMatch(/<ins[^>]*>delta<\/ins>/);

    const res = await post(`/dashboard/blogs/${blog.id}/revisions`, writer, {
      intent: "restore",
      revision: revs[0]!.id,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/dashboard/blogs/${blog.id}/revisions`);
    expect((await row(blog.id)).blogDetails).toBe("Alpha beta gamma.");
    expect(await history(blog.id)).toHaveLength(3);
  });

  it("refuses anonymous and other users (loader and action) without changing D1; admins get in", async () => {
    const writer = await makeUser();
    const other = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(writer, { title: "Before" });
    await db().update(schema.blogs).set({ title: "After" }).where(eq(schema.blogs.id, blog.id));
    await db().insert(schema.blogRevisions).values({
      id: "rev00000000000000001",
      blogId: blog.id,
      savedBy: writer.id,
      savedByName: "W",
      title: "Before",
      shortDescription: blog.shortDescription,
      blogDetails: blog.blogDetails,
      category: blog.category,
      image: blog.image,
    });
    const path = `/dashboard/blogs/${blog.id}/revisions`;
    const anon = await get(path, null);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toContain("/login");
    expect((await get(path, other)).status).toBe(403);
    expect((await get(path, admin)).status).toBe(200);
    expect((await get(path, writer)).status).toBe(200);

    const fields = { intent: "restore", revision: "rev00000000000000001" };
    const anonPost = await post(path, null, fields);
    expect(anonPost.status).toBe(302);
    expect(anonPost.headers.get("Location")).toContain("/login");
    expect((await post(path, other, fields)).status).toBe(403);
    expect((await row(blog.id)).title).toBe("After");
    expect(await history(blog.id)).toHaveLength(1);

    expect((await post(path, admin, fields)).status).toBe(302);
    expect((await row(blog.id)).title).toBe("Before");
    expect(await history(blog.id)).toHaveLength(2);
  });
});
