import { describe, expect, it } from "vitest";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";

type State = { following: boolean; followers: number };
type ErrorBody = { error: { code: string } };
const post = async (path: string, headers: Record<string, string> = {}) => send("POST", path, undefined, headers);
const del = async (path: string, headers: Record<string, string> = {}) => call(path, { method: "DELETE", headers });

describe("following writers over /api", () => {
  it("follows once however often asked, counts followers, and unfollows", async () => {
    const writer = await makeUser({ name: "Followed Writer" });
    const [a, b] = [await makeUser(), await makeUser()];
    const ha = await asUser(a);
    const first = await post(`/api/writers/${writer.id}/follow`, ha);
    expect(first.status).toBe(200);
    expect(await json<State>(first)).toEqual({ following: true, followers: 1 });
    expect(await json<State>(await post(`/api/writers/${writer.id}/follow`, ha))).toEqual({
      following: true,
      followers: 1,
    });
    expect(await json<State>(await post(`/api/writers/${writer.id}/follow`, await asUser(b)))).toEqual({
      following: true,
      followers: 2,
    });
    expect(await json<State>(await call(`/api/writers/${writer.id}/follow`, { headers: ha }))).toEqual({
      following: true,
      followers: 2,
    });
    const gone = await del(`/api/writers/${writer.id}/follow`, ha);
    expect(gone.status).toBe(200);
    expect(await json<State>(gone)).toEqual({ following: false, followers: 1 });
    expect(await json<State>(await del(`/api/writers/${writer.id}/follow`, ha))).toEqual({
      following: false,
      followers: 1,
    });
    // Personal: never a shared copy.
    expect(gone.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("refuses a visitor (401), following yourself (400) and an unknown writer (404)", async () => {
    const reader = await makeUser();
    const headers = await asUser(reader);
    expect((await post(`/api/writers/${reader.id}/follow`)).status).toBe(401);
    const self = await post(`/api/writers/${reader.id}/follow`, headers);
    expect(self.status).toBe(400);
    expect((await json<ErrorBody>(self)).error.code).toBe("follow-self");
    expect((await post(`/api/writers/abcdefghij0123456789/follow`, headers)).status).toBe(404);
    expect((await post(`/api/writers/not%20an%20id/follow`, headers)).status).toBe(404);
    expect((await call(`/api/following`)).status).toBe(401);
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
    for (const w of [w1, w2]) await post(`/api/writers/${w.id}/follow`, headers);

    const all = await call(`/api/following`, { headers });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("2");
    expect(all.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await json<{ _id: string }[]>(all)).map((b) => b._id)).toEqual([newer.id, older.id]);

    const page2 = await call(`/api/following?limit=1&page=2`, { headers });
    expect((await json<{ _id: string }[]>(page2)).map((b) => b._id)).toEqual([older.id]);
    expect(page2.headers.get("Link")).toContain('rel="prev"');
    expect((await call(`/api/following?page=0`, { headers })).status).toBe(400);

    const writers = await call(`/api/follows`, { headers });
    expect(writers.headers.get("X-Total-Count")).toBe("2");
    expect((await json<{ _id: string }[]>(writers)).map((w) => w._id).sort()).toEqual([w1.id, w2.id].sort());
  });
});
