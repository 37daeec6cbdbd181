import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { call, send } from "../support/http";

const FREE = "Everyone reads this opening paragraph.";
const SECRET = "Only paying members read this sentence.";
const details = `${FREE}\n\n<!--members-only-->\n\n${SECRET}`;

async function world(visibility: "members" | "paid", text = details) {
  const writer = await makeUser();
  const blog = await makeBlog(writer, { blogDetails: text, visibility });
  const reader = await makeUser();
  const member = await makeUser();
  await db().insert(schema.members).values({ userId: member.id, status: "paid", subscriptionStatus: "active" });
  const comped = await makeUser();
  await db().insert(schema.members).values({ userId: comped.id, status: "comped", compTierId: null });
  return { writer, blog, reader, member };
}

const read = async (id: string, headers: Record<string, string> = {}) =>
  (await (await call(`/api/blogs/${id}`, { headers })).json()) as {
    blog_details: string;
    access: boolean;
    visibility: string;
  };

describe("the members' gate on a post", () => {
  it("REST: the preview above the marker for visitors and free readers, the whole post for members and its writer", async () => {
    const w = await world("paid");
    const anonymous = await read(w.blog.id);
    expect(anonymous).toMatchObject({ visibility: "paid", access: false, blog_details: FREE });
    expect(JSON.stringify(anonymous)).not.toContain(SECRET);
    expect(await read(w.blog.id, await asUser(w.reader))).toMatchObject({ access: false, blog_details: FREE });
    expect(await read(w.blog.id, await asUser(w.member))).toMatchObject({ access: true, blog_details: details });
    expect(await read(w.blog.id, await asUser(w.writer))).toMatchObject({ access: true, blog_details: details });
    // Lists and search carry the preview too, and no snippet of the gated text.
    const list = await (await call(`/allBlogs?q=${encodeURIComponent("paying members")}`)).text();
    expect(list).not.toContain(SECRET);
  });

  it("a members-only post without a marker previews its short description; any signed-in reader reads it", async () => {
    const w = await world("members", SECRET);
    expect(await read(w.blog.id)).toMatchObject({ access: false, blog_details: w.blog.shortDescription });
    expect(await read(w.blog.id, await asUser(w.reader))).toMatchObject({ access: true, blog_details: SECRET });
  });

  it("the page: the shared copy carries the preview, a call to action and paywall markup; a member's copy is whole and private", async () => {
    const w = await world("paid");
    const path = postPath({ id: w.blog.id, title: w.blog.title, slug: "" });
    const visitor = await call(path);
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get("Cache-Control")).toContain("s-maxage");
    const html = await visitor.text();
    expect(html).toContain(FREE);
    expect(html).not.toContain(SECRET);
    expect(html).toContain("data-members-cta");
    expect(html).toContain('"isAccessibleForFree":false');

    const mine = await call(path, { headers: await asUser(w.member) });
    expect(mine.headers.get("Cache-Control")).toBe("private, no-store");
    const full = await mine.text();
    expect(full).toContain(SECRET);
    expect(full).not.toContain("data-members-cta");
    expect(full).not.toContain("&lt;!--members-only");
  });

  it("writers choose who reads a post; an unknown choice is refused", async () => {
    const writer = await makeUser();
    const body = {
      title: "Gated",
      short_description: "A short description.",
      blog_details: details,
      category: "Technology",
      date_time: "2026-11-21T10:30",
      image: "https://img.example.com/cover.png",
      visibility: "paid",
    };
    const res = await send("POST", "/api/blogs", body, await asUser(writer));
    expect(res.status).toBe(201);
    const { insertedId } = (await res.json()) as { insertedId: string };
    expect(await read(insertedId)).toMatchObject({ visibility: "paid", access: false });
    const bad = await send("POST", "/api/blogs", { ...body, visibility: "vip" }, await asUser(writer));
    expect(bad.status).toBe(400);
  });
});
