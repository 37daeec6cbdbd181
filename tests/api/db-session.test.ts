import { describe, expect, it } from "vitest";
import { asUser, makeUser } from "../support/factories";
import { call } from "../support/http";

const post = {
  title: "Read your own writes",
  short_description: "Bookmarks.",
  blog_details: "Body.",
  category: "AI",
  date_time: "2026-11-21T10:30",
  image: "https://example.com/p.png",
};

describe("D1 sessions: read your own writes", () => {
  it("hands a writer their bookmark after a write, and reads through it on the next request", async () => {
    const writer = await makeUser({ name: "Bookmark Writer" });
    const headers = { "Content-Type": "application/json", ...(await asUser(writer)) };
    const created = await call("/api/blogs", { method: "POST", headers, body: JSON.stringify(post) });
    expect(created.status).toBe(201);
    const { insertedId } = (await created.json()) as { insertedId: string };
    const cookie = created.headers.getSetCookie().find((c) => c.startsWith("d1-bookmark="));
    expect(cookie).toMatch(/^d1-bookmark=[^;]+;.*Max-Age=300/);
    expect(cookie).toMatch(/HttpOnly/);

    const bookmark = cookie!.split(";")[0]!;
    const read = await call(`/api/blogs/${insertedId}`, { headers: { Cookie: bookmark } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { title: string }).title).toBe(post.title);
    // A read hands out no new bookmark.
    expect(read.headers.getSetCookie().some((c) => c.startsWith("d1-bookmark="))).toBe(false);
  });

  it("ignores a malformed bookmark instead of failing the read", async () => {
    const res = await call("/api/latest-blogs", { headers: { Cookie: "d1-bookmark=%00not a bookmark" } });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });
});
