import { describe, expect, it } from "vitest";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { json, send } from "../support/http";
import { client } from "../support/client";

type State = { following: boolean; followers: number };
type ErrorBody = { error: { code: string } };
const post = async (path: string, headers: Record<string, string> = {}) => send("POST", path, undefined, headers);
const follow = (id: string, headers: Record<string, string> = {}) =>
  client(headers).writers[":id"].follow.$post({ param: { id } });
const unfollow = (id: string, headers: Record<string, string> = {}) =>
  client(headers).writers[":id"].follow.$delete({ param: { id } });

describe("following writers over /api", () => {
  it("follows once however often asked, counts followers, and unfollows", async () => {
    const writer = await makeUser({ name: "Followed Writer" });
    const [a, b] = [await makeUser(), await makeUser()];
    const ha = await asUser(a);
    const first = await follow(writer.id, ha);
    expect(first.status).toBe(200);
    expect(await json<State>(first)).toEqual({ following: true, followers: 1 });
    expect(await json<State>(await follow(writer.id, ha))).toEqual({
      following: true,
      followers: 1,
    });
    expect(await json<State>(await follow(writer.id, await asUser(b)))).toEqual({
      following: true,
      followers: 2,
    });
    expect(await json<State>(await client(ha).writers[":id"].follow.$get({ param: { id: writer.id } }))).toEqual({
      following: true,
      followers: 2,
    });
    const gone = await unfollow(writer.id, ha);
    expect(gone.status).toBe(200);
    expect(await json<State>(gone)).toEqual({ following: false, followers: 1 });
    expect(await json<State>(await unfollow(writer.id, ha))).toEqual({
      following: false,
      followers: 1,
    });
    // Personal: never a shared copy.
    expect(gone.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("refuses a visitor (401), following yourself (400) and an unknown writer (404)", async () => {
    const reader = await makeUser();
    const headers = await asUser(reader);
    expect((await follow(reader.id)).status).toBe(401);
    const self = await follow(reader.id, headers);
    expect(self.status).toBe(400);
    expect((await json<ErrorBody>(self)).error.code).toBe("follow-self");
    expect((await follow("abcdefghij0123456789", headers)).status).toBe(404);
    expect((await post(`/api/writers/not%20an%20id/follow`, headers)).status).toBe(404);
    expect((await client().following.$get({ query: {} })).status).toBe(401);
  });

  it("GET /api/following: the followed writers' visible posts only, newest first, paginated", async () => {
    const [w1, w2, other] = [await makeUser(), await makeUser(), await makeUser()];
    const reader = await makeUser();
    const headers = await asUser(reader);
    const older = await makeBlog(w1, { dateTime: "2026-01-01T10:00:00.000Z", title: "Older" });
    const newer = await makeBlog(w2, { dateTime: "2026-02-01T10:00:00.000Z", title: "Newer" });
    await makeBlog(w1, { status: "draft", title: "A draft" });
    await makeBlog(w1, { status: "scheduled", publishAt: Date.now() + 3_600_000, title: "Later" });
    await makeBlog(other, { title: "Not followed" });
    for (const w of [w1, w2]) await follow(w.id, headers);

    const all = await client(headers).following.$get({ query: {} });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("2");
    expect(all.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await json<{ _id: string }[]>(all)).map((b) => b._id)).toEqual([newer.id, older.id]);

    const page2 = await client(headers).following.$get({ query: { limit: "1", page: "2" } });
    expect((await json<{ _id: string }[]>(page2)).map((b) => b._id)).toEqual([older.id]);
    expect(page2.headers.get("Link")).toContain('rel="prev"');
    expect((await client(headers).following.$get({ query: { page: "0" } })).status).toBe(400);

    const writers = await client(headers).follows.$get({ query: {} });
    expect(writers.headers.get("X-Total-Count")).toBe("2");
    expect((await json<{ _id: string }[]>(writers)).map((w) => w._id).sort()).toEqual([w1.id, w2.id].sort());
  });
});
