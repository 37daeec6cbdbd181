import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { SAVED_PAGE_SIZE } from "#worker/services/saved-blogs.ts";
import { asUser, db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { call, json, untilHit } from "../support/http";
import { postPath } from "#worker/services/blogs/slug.ts";

type User = Awaited<ReturnType<typeof makeUser>>;

/** Asks until the answer is a HIT: the MISS stores its copy in waitUntil, after the answer went out. */
const page = async (path: string, user: User) =>
  call(path, { headers: { Cookie: `__Host-session=${await sessionFor(user)}` }, redirect: "manual" });

const formPost = async (path: string, fields: Record<string, string>, user: User) =>
  call(path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: `__Host-session=${await sessionFor(user)}`,
    },
    redirect: "manual",
  });

/** Saves `blogs` for `reader`, the first saved first (so the last one is the newest save). */
async function saveInOrder(reader: User, blogIds: string[]) {
  const start = Date.now() - 100_000;
  await db()
    .insert(schema.savedBlogs)
    .values(
      blogIds.map((blogId, i) => ({
        id: newId(),
        userId: reader.id,
        blogId,
        email: reader.email,
        createdAt: start + i * 1000,
      })),
    );
}

/** The saved posts' titles on a /saved page, in order. */
const savedTitles = (html: string) =>
  [...html.matchAll(/aria-label="Remove (.*?) from your reading list"/g)].map((m) => m[1]);

describe("the reading list: /saved", () => {
  let writer: User;
  beforeAll(async () => {
    writer = await makeUser({ name: "List Writer" });
  });

  it("sends a visitor to sign in and back", async () => {
    const res = await call("/saved", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?redirectTo=%2Fsaved");
  });

  it("lists every saved post newest save first, paginated, private, and drops posts that went back to draft", async () => {
    const reader = await makeUser();
    const blogs = [];
    for (let i = 0; i < SAVED_PAGE_SIZE + 2; i++) blogs.push(await makeBlog(writer, { title: `Saved number ${i}` }));
    await saveInOrder(
      reader,
      blogs.map((b) => b.id),
    );
    // One saved post goes back to draft, another is scheduled for later: neither may show.
    await db().update(schema.blogs).set({ status: "draft" }).where(eq(schema.blogs.id, blogs[5]!.id));
    await db()
      .update(schema.blogs)
      .set({ status: "scheduled", publishAt: Date.now() + 86_400_000 })
      .where(eq(schema.blogs.id, blogs[6]!.id));

    const first = await page("/saved", reader);
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await first.text();
    const visible = [11, 10, 9, 8, 7, 4, 3, 2, 1, 0].map((i) => `Saved number ${i}`);
    expect(savedTitles(html)).toEqual(visible);
    expect(html).toContain(`${SAVED_PAGE_SIZE} saved posts`);
    expect(html).toContain('aria-label="Reading list pages"');
    expect(html).not.toContain("Saved number 5");
    expect(html).not.toContain("Saved number 6");
    // 12 saved, 2 hidden: 10 visible fill exactly one page.
    const second = await (await page("/saved?page=2", reader)).text();
    expect(savedTitles(second)).toEqual([]);
    expect(second).toContain("There is no such page");

    // Published again, the draft comes back in its place.
    await db().update(schema.blogs).set({ status: "published" }).where(eq(schema.blogs.id, blogs[5]!.id));
    const again = await (await page("/saved?page=2", reader)).text();
    expect(savedTitles(again)).toEqual(["Saved number 0"]);
  });

  it("shows an empty state when nothing is saved", async () => {
    const html = await (await page("/saved", await makeUser())).text();
    expect(html).toContain("Nothing saved yet");
    expect(html).toContain('href="/allBlogs"');
  });

  it("removes a post with a plain form post (no JavaScript) and says so; a second Remove says it was already gone", async () => {
    const reader = await makeUser();
    const other = await makeUser();
    const [a, b] = [await makeBlog(writer, { title: "Keep me" }), await makeBlog(writer, { title: "Remove me" })];
    await saveInOrder(reader, [a.id, b.id]);
    await saveInOrder(other, [b.id]);

    const res = await formPost("/saved", { intent: "remove", blogId: b.id }, reader);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Removed from your saved list");
    expect(savedTitles(html)).toEqual(["Keep me"]);
    // Someone else's save of the same post is untouched.
    const othersRows = await db().select().from(schema.savedBlogs).where(eq(schema.savedBlogs.userId, other.id));
    expect(othersRows.map((r) => r.blogId)).toEqual([b.id]);

    const twice = await formPost("/saved", { intent: "remove", blogId: b.id }, reader);
    expect(twice.status).toBe(200);
    expect(await twice.text()).toContain("That blog was no longer in your saved list");
  });

  it("refuses a visitor's Remove (to /login) and an unknown intent (400)", async () => {
    const res = await call("/saved", {
      method: "POST",
      body: new URLSearchParams({ intent: "remove", blogId: "x" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    const odd = await formPost("/saved", { intent: "explode" }, await makeUser());
    expect(odd.status).toBe(400);
  });

  it("the post page's Save says when a post is already saved, and keeps one entry", async () => {
    const reader = await makeUser();
    const blog = await makeBlog(writer, { title: "Save twice" });
    const firstSave = await formPost(postPath(blog), { intent: "save" }, reader);
    expect(await firstSave.text()).toContain("Blog Saved Successfully");
    const secondSave = await formPost(postPath(blog), { intent: "save" }, reader);
    const html = await secondSave.text();
    expect(html).toContain("This blog is already in your saved list");
    expect(html).not.toContain("Blog Saved Successfully");
    const rows = await db().select().from(schema.savedBlogs).where(eq(schema.savedBlogs.userId, reader.id));
    expect(rows).toHaveLength(1);
  });

  it("is linked from the avatar menu and the all-blogs sidebar", async () => {
    const reader = await makeUser();
    expect(await (await page("/allBlogs", reader)).text()).toMatch(/href="\/saved"[^>]*>See your reading list/);
    expect(await (await page("/about", reader)).text()).toMatch(/href="\/saved"[^>]*>Reading list/);
  });

  it("the avatar menu has Dashboard and Write", async () => {
    const reader = await makeUser();
    const html = await (await page("/about", reader)).text();
    const menu = html.slice(html.indexOf("Account menu for"));
    expect(menu).toMatch(/href="\/dashboard"[^>]*>Dashboard</);
    expect(menu).toMatch(/href="\/dashboard\/writeBlogs"[^>]*>Write</);
  });
});

describe("DELETE /api/save-blogs/{blogId}", () => {
  it("takes a post out of the caller's own list only; 401 without a session, 404 when it is not there", async () => {
    const writer = await makeUser();
    const reader = await makeUser();
    const other = await makeUser();
    const blog = await makeBlog(writer);
    await saveInOrder(reader, [blog.id]);
    await saveInOrder(other, [blog.id]);

    expect((await call(`/api/save-blogs/${blog.id}`, { method: "DELETE" })).status).toBe(401);
    const res = await call(`/api/save-blogs/${blog.id}`, { method: "DELETE", headers: await asUser(reader) });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ deletedCount: 1 });
    const again = await call(`/api/save-blogs/${blog.id}`, { method: "DELETE", headers: await asUser(reader) });
    expect(again.status).toBe(404);
    expect(await json(again)).toMatchObject({ error: { code: "not-found" } });
    expect((await call("/api/save-blogs/not-an-id!", { method: "DELETE", headers: await asUser(reader) })).status).toBe(
      404,
    );
    const left = await db().select().from(schema.savedBlogs).where(eq(schema.savedBlogs.blogId, blog.id));
    expect(left.map((r) => r.userId)).toEqual([other.id]);
  });
});

describe("writer pages: /writers/{id}", () => {
  it("shows the writer's profile and only their visible posts, paginated", async () => {
    const writer = await makeUser({ name: "Wanda Writer", photoUrl: "https://example.com/wanda.png" });
    await db().insert(schema.profiles).values({
      id: newId(),
      userId: writer.id,
      name: "Wanda W. Writer",
      email: writer.email,
      bio: "Writes about quiet machines.",
      designation: "Staff Engineer",
    });
    for (let i = 0; i < 7; i++) {
      await makeBlog(writer, { title: `Wanda post ${i}`, dateTime: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() });
    }
    await makeBlog(writer, { title: "Wanda draft", status: "draft" });
    await makeBlog(writer, { title: "Wanda later", status: "scheduled", publishAt: Date.now() + 86_400_000 });
    await makeBlog(await makeUser(), { title: "Someone else's post" });

    const res = await call(`/writers/${writer.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Wanda W. Writer");
    expect(html).toContain("Staff Engineer");
    expect(html).toContain("Writes about quiet machines.");
    expect(html).toContain("https://example.com/wanda.png");
    expect(html).toContain("7 posts");
    for (const i of [6, 5, 4, 3, 2, 1]) expect(html).toContain(`Wanda post ${i}`);
    expect(html).not.toContain("Wanda post 0");
    for (const hidden of ["Wanda draft", "Wanda later", "Someone else&#x27;s post"]) expect(html).not.toContain(hidden);
    const second = await (await call(`/writers/${writer.id}?page=2`)).text();
    expect(second).toContain("Wanda post 0");
    expect(second).not.toContain("Wanda post 1<");
    expect(second).not.toContain("Wanda draft");
  });

  it("shows a real account with no published posts with an empty state, and 404s unknown ids", async () => {
    const quiet = await makeUser({ name: "Quiet Quinn" });
    await makeBlog(quiet, { title: "Only a draft", status: "draft" });
    const res = await call(`/writers/${quiet.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Quiet Quinn has not published anything yet.");
    expect(html).not.toContain("Only a draft");
    expect((await call(`/writers/${newId()}`)).status).toBe(404);
    expect((await call("/writers/NOT-AN-ID")).status).toBe(404);
  });

  it("is shared in the edge cache under writer:{id} and blogs, and a profile edit purges it", async () => {
    const writer = await makeUser({ name: "Cached Writer" });
    const profileId = newId();
    await db().insert(schema.profiles).values({
      id: profileId,
      userId: writer.id,
      name: "Cached Writer",
      email: writer.email,
      bio: "The old bio.",
      designation: "Reporter",
    });
    await makeBlog(writer, { title: "Cached writer's post" });
    const path = `/writers/${writer.id}`;
    const miss = await call(path);
    expect(miss.headers.get("Cache-Control")).toMatch(/public/);
    expect(miss.headers.get("Cache-Tag")).toBe(`site,blogs,writer:${writer.id}`);
    await miss.body?.cancel();
    expect(await (await untilHit(path)).text()).toContain("The old bio.");

    const edit = await call(`/api/profiles/${profileId}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json", ...(await asUser(writer)) },
      body: JSON.stringify({ name: "Cached Writer", designation: "Editor", bio: "The new bio." }),
    });
    expect(edit.status).toBe(200);
    const after = await call(path);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    const html = await after.text();
    expect(html).toContain("The new bio.");
    expect(html).toContain("Editor");
  });

  it("is linked from the post's byline and from the cards on /allBlogs", async () => {
    const writer = await makeUser({ name: "Byline Bea" });
    const blog = await makeBlog(writer, { title: "A post with a byline", category: "Science" });
    const post = await (await call(postPath(blog))).text();
    expect(post).toMatch(new RegExp(`href="/writers/${writer.id}"[^>]*>Byline Bea<`));
    const list = await (await call("/allBlogs?category=Science")).text();
    expect(list).toMatch(new RegExp(`href="/writers/${writer.id}"[^>]*>Byline Bea<`));
  });
});

describe("per-category RSS", () => {
  it("carries only that category's visible posts, and 404s an unknown category", async () => {
    const writer = await makeUser({ name: "Feed Writer" });
    await makeBlog(writer, { title: "Travel feed item", category: "Travel" });
    await makeBlog(writer, { title: "Travel draft item", category: "Travel", status: "draft" });
    await makeBlog(writer, { title: "Health feed item", category: "Health" });
    const res = await call("/rss.xml?category=Travel");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/application\/rss\+xml/);
    const xml = await res.text();
    expect(xml).toContain("<title>Edge Blog: Travel</title>");
    expect(xml).toContain("Travel feed item");
    expect(xml).not.toContain("Travel draft item");
    expect(xml).not.toContain("Health feed item");
    expect([...xml.matchAll(/<category>(.*?)<\/category>/g)].every((m) => m[1] === "Travel")).toBe(true);
    expect(xml).toContain('href="https://blog.test/rss.xml?category=Travel" rel="self"');

    const unknown = await call("/rss.xml?category=Gardening");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toMatch(/No such category/);
    // The whole site's feed still has both.
    const all = await (await call("/rss.xml")).text();
    expect(all).toContain("Travel feed item");
    expect(all).toContain("Health feed item");
  });

  it("is linked from each category view, visibly and in the head", async () => {
    const html = await (await call("/allBlogs?category=AI")).text();
    expect(html).toMatch(
      /<link[^>]*rel="alternate"[^>]*type="application\/rss\+xml"[^>]*href="\/rss\.xml\?category=AI"/,
    );
    expect(html).toMatch(/href="\/rss\.xml\?category=AI"[^>]*>RSS feed for <!-- -->AI/);
  });
});

describe("dates", () => {
  it("are rendered in UTC on the shared page with the ISO instant in <time dateTime>", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { dateTime: "2026-03-04T05:06:00.000Z" });
    const html = await (await call(postPath(blog))).text();
    // The byline names its zone for the script that rewrites it into the reader's (data-zone, data-local-time).
    expect(html).toMatch(
      /<time dateTime="2026-03-04T05:06:00.000Z" data-local-time="datetime" data-zone="UTC"[^>]*>March 4, 2026 at 5:06 AM UTC<\/time>/,
    );
  });
});
