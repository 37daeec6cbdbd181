import { DIFF_TIMEOUT_MS } from "#worker/content/revision-diff.ts";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { Forbidden, NotFound, Unauthorized } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { diffVersions } from "#worker/content/revision-diff.ts";
import { db, makeBlog, makeUser } from "../support/factories";

const services = () => createServices(env);
const actor = (u: { id: string; name: string; email: string; role?: string }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role === "admin" ? "admin" : "user",
  photoURL: null,
});

async function setup() {
  const writer = await makeUser({ name: "Rita Writer" });
  const other = await makeUser({ name: "Otto Other" });
  const admin = await makeUser({ name: "Ann Admin", role: "admin" });
  const blog = await makeBlog(writer, { title: "First title", blogDetails: "One two three." });
  return { writer, other, admin, blog };
}

const historyRows = (blogId: string) =>
  db().select().from(schema.blogRevisions).where(eq(schema.blogRevisions.blogId, blogId));

describe("revision history", () => {
  it("keeps the previous version on every content save, with who saved it", async () => {
    const { writer, blog } = await setup();
    const w = actor(writer);
    await services().blogs.update(w, blog.id, { title: "Second title" });
    await services().blogs.update(w, blog.id, { blog_details: "One two four." });
    const { revisions, blog: now } = await services().blogs.revisions(w, blog.id);
    expect(now.title).toBe("Second title");
    expect(revisions.map((r) => [r.title, r.blog_details])).toEqual([
      ["Second title", "One two three."],
      ["First title", "One two three."],
    ]);
    expect(revisions[0]).toMatchObject({ saved_by_name: "Rita Writer", category: "Technology" });
    // No change, no revision.
    expect(await services().blogs.update(w, blog.id, { title: "Second title" })).toEqual({ modifiedCount: 0 });
    expect(await historyRows(blog.id)).toHaveLength(2);
  });

  it("restore brings back the old fields and is itself a new revision", async () => {
    const { writer, blog } = await setup();
    const w = actor(writer);
    await services().blogs.update(w, blog.id, { title: "Edited once", category: "Science" });
    await services().blogs.update(w, blog.id, { title: "Edited twice", short_description: "Changed." });
    const { revisions } = await services().blogs.revisions(w, blog.id);
    const first = revisions.at(-1)!;
    expect(first.title).toBe("First title");
    expect(await services().blogs.restoreRevision(w, blog.id, first._id)).toEqual({ modifiedCount: 1 });
    const restored = await services().blogs.byId(blog.id, w);
    expect(restored).toMatchObject({
      title: "First title",
      category: "Technology",
      short_description: "A short description of the post.",
      blog_details: "One two three.",
    });
    const after = await services().blogs.revisions(w, blog.id);
    expect(after.revisions).toHaveLength(3);
    expect(after.revisions[0]).toMatchObject({ title: "Edited twice", short_description: "Changed." });
  });

  it("lets the writer and an admin in, and refuses anonymous and other users without touching D1", async () => {
    const { writer, other, admin, blog } = await setup();
    await services().blogs.update(actor(writer), blog.id, { title: "Changed" });
    const [rev] = (await services().blogs.revisions(actor(writer), blog.id)).revisions;
    expect((await services().blogs.revisions(actor(admin), blog.id)).revisions).toHaveLength(1);
    await expect(services().blogs.revisions(null, blog.id)).rejects.toBeInstanceOf(Unauthorized);
    await expect(services().blogs.revisions(actor(other), blog.id)).rejects.toBeInstanceOf(Forbidden);
    await expect(services().blogs.restoreRevision(null, blog.id, rev!._id)).rejects.toBeInstanceOf(Unauthorized);
    await expect(services().blogs.restoreRevision(actor(other), blog.id, rev!._id)).rejects.toBeInstanceOf(Forbidden);
    expect((await services().blogs.byId(blog.id)).title).toBe("Changed");
    expect(await historyRows(blog.id)).toHaveLength(1);
    // A revision of another post cannot be restored here.
    const elsewhere = await makeBlog(writer);
    await expect(services().blogs.restoreRevision(actor(writer), elsewhere.id, rev!._id)).rejects.toBeInstanceOf(
      NotFound,
    );
    // The admin may restore.
    expect(await services().blogs.restoreRevision(actor(admin), blog.id, rev!._id)).toEqual({ modifiedCount: 1 });
    expect((await services().blogs.byId(blog.id)).title).toBe("First title");
    expect((await services().blogs.revisions(actor(admin), blog.id)).revisions[0]).toMatchObject({
      saved_by_name: "Ann Admin",
      title: "Changed",
    });
  });

  it("deleting a post deletes its history, and deleting a user deletes theirs", async () => {
    const { writer, blog } = await setup();
    await services().blogs.update(actor(writer), blog.id, { title: "Changed" });
    expect(await historyRows(blog.id)).toHaveLength(1);
    await services().blogs.remove(actor(writer), blog.id);
    expect(await historyRows(blog.id)).toHaveLength(0);

    const second = await makeBlog(writer);
    await services().blogs.update(actor(writer), second.id, { title: "Changed again" });
    await db().delete(schema.users).where(eq(schema.users.id, writer.id));
    expect(await historyRows(second.id)).toHaveLength(0);
  });

  it("shows what changed per field, word by word", () => {
    const base = { title: "Hello", category: "Science", short_description: "s", image: "/images/a.png" };
    const diff = diffVersions(
      { ...base, blog_details: "The quick brown fox.\nSecond line." },
      { ...base, title: "Hello world", blog_details: "The slow brown fox.\nSecond line." },
    );
    const details = diff.find((d) => d.field === "blog_details")!;
    expect(details.changed).toBe(true);
    expect(details.parts.filter((p) => p.removed).map((p) => p.value.trim())).toEqual(["quick"]);
    expect(details.parts.filter((p) => p.added).map((p) => p.value.trim())).toEqual(["slow"]);
    expect(diff.find((d) => d.field === "category")!.changed).toBe(false);
    expect(
      diff
        .find((d) => d.field === "title")!
        .parts.filter((p) => p.added)
        .map((p) => p.value.trim()),
    ).toEqual(["world"]);
  });
});

describe("revision diff caps", () => {
  it("a diff of two unrelated 4,000-word texts stops at jsdiff's timeout and shows the field replaced whole", () => {
    const words = (seed: number) => Array.from({ length: 4_000 }, (_, i) => `w${(i * seed) % 9973}`).join(" ");
    const base = { title: "T", category: "AI", short_description: "S", image: "/images/a.png" };
    const started = Date.now();
    const diff = diffVersions({ ...base, blog_details: words(7) }, { ...base, blog_details: words(13) });
    expect(Date.now() - started).toBeLessThan(DIFF_TIMEOUT_MS + 2_000);
    const details = diff.find((d) => d.field === "blog_details")!;
    expect(details.changed).toBe(true);
    expect(details.parts.length).toBeGreaterThan(0);
  });
});
