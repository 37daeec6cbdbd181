import { describe, expect, it } from "vitest";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { call, json, send, untilHit } from "../support/http";
import { cookieFor, postForm, withSession } from "../support/pages";

/** A writer with one unread notification (a comment on their post). */
async function notifiedWriter() {
  const writer = await withSession(await makeUser({ name: "Bell Writer" }));
  const blog = await makeBlog(writer, { title: "Bell post" });
  const reader = await makeUser({ name: "Bell Reader" });
  expect((await send("POST", `/api/blogs/${blog.id}/comments`, { body: "Hi" }, await asUser(reader))).status).toBe(201);
  return { writer, blog, reader };
}

describe("the bell and /notifications", () => {
  it("opening a notification marks it read and lands on the comment; another's notification goes to the list", async () => {
    const { writer, blog } = await notifiedWriter();
    const headers = await asUser(writer);
    const [item] = await json<{ _id: string }[]>(await call("/api/notifications", { headers }));
    const list = await (await call("/notifications", { headers: await cookieFor(writer) })).text();
    expect(list).toContain(`href="/notifications/${item!._id}"`);

    const opened = await call(`/notifications/${item!._id}`, { headers: await cookieFor(writer), redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("Location")).toMatch(new RegExp(`^/blogs/${blog.id}#comment-[0-9a-z]+$`));
    expect(await json(await call("/api/notifications/unread", { headers }))).toEqual({ unread: 0 });

    const stranger = await makeUser({ name: "Nosy" });
    const refused = await call(`/notifications/${item!._id}`, {
      headers: await cookieFor(stranger),
      redirect: "manual",
    });
    expect(refused.headers.get("Location")).toBe("/notifications");
    const visitor = await call(`/notifications/${item!._id}`, { redirect: "manual" });
    expect(visitor.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("a signed-in reader's bell is personal: never in a shared copy, and the shared copy never shows one", async () => {
    const { writer } = await notifiedWriter();
    for (const path of ["/allBlogs?page=1", "/", "/about"]) {
      const theirs = await call(path, { headers: await cookieFor(writer) });
      expect(theirs.headers.get("Cache-Control")).toBe("private, no-store");
      expect(theirs.headers.get("X-Cache")).not.toBe("HIT");
      expect(await theirs.text()).toContain(`aria-label="Notifications, 1 unread"`);
      // Visitors get the shared copy, which has no bell and no count.
      const shared = await untilHit(path);
      const html = await shared.text();
      expect(html).not.toContain("notification-bell");
      expect(html).not.toContain("unread");
    }
  });

  it("GET /api/notifications/unread is private and needs a session; the list and mark-read work over /api", async () => {
    const { writer } = await notifiedWriter();
    expect((await call("/api/notifications/unread")).status).toBe(401);
    const headers = await asUser(writer);
    const unread = await call("/api/notifications/unread", { headers });
    expect(unread.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await json(unread)).toEqual({ unread: 1 });
    const list = await call("/api/notifications", { headers });
    expect(list.headers.get("X-Total-Count")).toBe("1");
    const [item] = await json<{ _id: string; kind: string; text: string }[]>(list);
    expect(item).toMatchObject({ kind: "comment", text: "Bell Reader commented on “Bell post”" });
    const bad = await send("POST", "/api/notifications/read", "{not json", headers);
    expect(bad.status).toBe(400);
    expect(await json(await send("POST", "/api/notifications/read", { ids: [item!._id] }, headers))).toEqual({
      modifiedCount: 1,
    });
    expect(await json(await call("/api/notifications/unread", { headers }))).toEqual({ unread: 0 });
    expect(await json(await call("/api/notifications/prefs", { headers }))).toMatchObject({ comment: "instant" });
    expect((await send("PUT", "/api/notifications/prefs", { like: "hourly" }, headers)).status).toBe(400);
    expect(await json(await send("PUT", "/api/notifications/prefs", { like: "digest" }, headers))).toMatchObject({
      like: "digest",
      comment: "instant",
    });
  });

  it("/notifications lists them and marks all read without JavaScript; visitors sign in first", async () => {
    const { writer } = await notifiedWriter();
    const visitor = await call("/notifications", { redirect: "manual" });
    expect(visitor.status).toBe(302);
    const page = await call("/notifications", { headers: await cookieFor(writer) });
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await page.text();
    expect(html).toContain("Bell Reader commented on “Bell post”");
    expect(html).toContain("Mark all as read");
    const done = await postForm("/notifications", writer, { intent: "read-all" });
    expect(done.status).toBe(200);
    const after = await (await call("/notifications", { headers: await cookieFor(writer) })).text();
    expect(after).not.toContain("Mark all as read");
    expect(after).toContain(`aria-label="Notifications"`);
  });

  it("/settings saves the per-kind email choices, and refuses an unknown one", async () => {
    const user = await withSession(await makeUser());
    const page = await (await call("/settings", { headers: await cookieFor(user) })).text();
    expect(page).toContain("New posts from writers you follow");
    const fields = {
      intent: "notification-prefs",
      comment: "digest",
      reply: "off",
      follow: "instant",
      post: "instant",
      like: "digest",
    };
    const saved = await postForm("/settings", user, fields);
    expect(saved.status).toBe(302);
    expect(await json(await call("/api/notifications/prefs", { headers: await asUser(user) }))).toEqual({
      comment: "digest",
      reply: "off",
      follow: "instant",
      post: "instant",
      like: "digest",
    });
    const refused = await postForm("/settings", user, { ...fields, like: "weekly" });
    expect(refused.status).toBe(400);
  });
});
