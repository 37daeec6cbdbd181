import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";
import { getPage, pngFile, postForm, withSession } from "../support/pages";

type Saved = { autosave: { fields: Record<string, string>; cover: string; saved_at: string } | null };
const read = async (headers: Record<string, string>) => json<Saved>(await call("/api/drafts/autosave", { headers }));

/** An image the user uploaded through the one image call. */
async function upload(headers: Record<string, string>): Promise<string> {
  const body = new FormData();
  body.append("image", pngFile());
  const res = await call("/api/images", { method: "POST", body, headers });
  expect(res.status).toBe(200);
  return (await json<{ data: { url: string } }>(res)).data.url;
}

describe("the account's autosave of Write Blogs (/api/drafts/autosave)", () => {
  it("keeps the writer's words and cover for them alone: nobody else reads or replaces it", async () => {
    const writer = await asUser(await makeUser());
    const other = await asUser(await makeUser());
    const cover = await upload(writer);
    const put = await send(
      "PUT",
      "/api/drafts/autosave",
      { fields: { title: "Half a thought ", blog_details: "Typed on the laptop.", unknown: "dropped" }, cover },
      writer,
    );
    expect(put.status).toBe(200);
    const mine = (await read(writer)).autosave!;
    expect(mine.fields).toEqual({ title: "Half a thought ", blog_details: "Typed on the laptop." });
    expect(mine.cover).toBe(cover);
    expect(Date.parse(mine.saved_at)).toBeGreaterThan(0);

    // Another account sees only its own (none), and its writes touch only its own.
    expect(await read(other)).toEqual({ autosave: null });
    await send("PUT", "/api/drafts/autosave", { fields: { title: "Theirs" } }, other);
    await send("DELETE", "/api/drafts/autosave", undefined, other);
    expect((await read(writer)).autosave?.fields.title).toBe("Half a thought ");

    // Visitors get nothing at all.
    expect((await call("/api/drafts/autosave")).status).toBe(401);
    expect((await send("PUT", "/api/drafts/autosave", { fields: { title: "x" } })).status).toBe(401);
  });

  it("is never a post: no public list, search or API answer shows it", async () => {
    const writer = await asUser(await makeUser());
    await send("PUT", "/api/drafts/autosave", { fields: { title: "Zyxwvut autosaved words" } }, writer);
    expect(await (await call("/api/blogs")).text()).not.toContain("Zyxwvut");
    expect(await (await call("/allBlogs?q=Zyxwvut", { headers: { Accept: "text/html" } })).text()).not.toContain(
      "Zyxwvut autosaved",
    );
  });

  it("refuses a cover that is not the writer's own upload, so it can never let another's image go", async () => {
    const writer = await asUser(await makeUser());
    const other = await asUser(await makeUser());
    const theirs = await upload(other);
    const res = await send("PUT", "/api/drafts/autosave", { fields: {}, cover: theirs }, writer);
    expect(res.status).toBe(400);
    const outside = await send("PUT", "/api/drafts/autosave", { cover: "https://img.example.com/a.png" }, writer);
    expect(outside.status).toBe(400);
    expect(await read(writer)).toEqual({ autosave: null });
  });

  it("Write Blogs offers it on another device (loader data) and posting clears it", async () => {
    const user = await makeUser();
    const writer = await withSession(user);
    const headers = await asUser(user);
    const cover = await upload(headers);
    await send("PUT", "/api/drafts/autosave", { fields: { title: "From the phone" }, cover }, headers);
    const page = await (await getPage("/dashboard/writeBlogs", writer)).text();
    expect(page).toContain("From the phone");

    // The kept cover URL stands in for the file: the post shows it, and the autosave is gone.
    const res = await postForm("/dashboard/writeBlogs", writer, {
      title: "From the phone",
      category: "Travel",
      date_time: "2026-11-21T10:30",
      tz: "+02:00",
      short_description: "Finished on the laptop.",
      blog_details: "Words.",
      image_url: cover,
    });
    expect(res.status).toBe(302);
    const [post] = await db().select().from(schema.blogs).where(eq(schema.blogs.authorId, user.id));
    expect(post?.image).toBe(cover);
    expect(await read(headers)).toEqual({ autosave: null });
    // The image stays: the post shows it now.
    const key = cover.slice("/images/".length);
    expect(await db().select().from(schema.images).where(eq(schema.images.key, key))).toHaveLength(1);
  });

  it("a discarded autosave lets its cover go, as nothing else shows it", async () => {
    const headers = await asUser(await makeUser());
    const cover = await upload(headers);
    await send("PUT", "/api/drafts/autosave", { fields: { title: "Soon gone" }, cover }, headers);
    const res = await send("DELETE", "/api/drafts/autosave", undefined, headers);
    expect(await json(res)).toEqual({ deletedCount: 1 });
    const key = cover.slice("/images/".length);
    expect(await db().select().from(schema.images).where(eq(schema.images.key, key))).toHaveLength(0);
  });
});
