import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { unzipSync, strFromU8 } from "fflate";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { reauthCookie } from "#worker/auth/reauth.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { asUser, db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { call, json } from "../support/http";
import { mailbox, sendWith } from "../support/mail";
import { PNG } from "../support/pages";

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };
type Row = Awaited<ReturnType<typeof makeUser>>;

const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  call(path, {
    method,
    headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const me = (token: string) => send("GET", "/api/auth/me", bearer(token));
const sessionsOf = async (userId: string) =>
  (await db().select().from(schema.sessions).where(eq(schema.sessions.userId, userId))).length;

const PASSWORD = "correct horse";
let passwordHash: string;
let user: Row;

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD, 1000);
  await env.DB.prepare("delete from rate_limits").run();
});

beforeEach(async () => {
  user = await makeUser({ name: "Settings Person", passwordHash });
});

describe("every account call needs a session", () => {
  it.each([
    ["POST", "/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "a new password" }],
    ["GET", "/api/auth/sessions", undefined],
    ["POST", "/api/auth/sessions/end-others", undefined],
    ["DELETE", "/api/auth/sessions/abcdefghijklmnopqrstuvwx", undefined],
    ["GET", "/api/auth/export", undefined],
    ["DELETE", "/api/auth/account", { password: PASSWORD }],
    ["GET", "/api/auth/passkeys", undefined],
    ["POST", "/api/auth/passkeys/register/options", undefined],
    ["POST", "/api/auth/passkeys/register/verify", {}],
    ["DELETE", "/api/auth/passkeys/abc", undefined],
  ])("%s %s answers 401 to a visitor", async (method, path, body) => {
    const res = await send(method, path, {}, body);
    expect(res.status).toBe(401);
    expect((await json<ErrorBody>(res)).error.code).toBe("unauthorized");
  });
});

describe("POST /api/auth/change-password", () => {
  it("refuses a wrong current password (400) and changes nothing", async () => {
    const token = await sessionFor(user);
    const other = await sessionFor(user);
    const res = await send("POST", "/api/auth/change-password", bearer(token), {
      currentPassword: "not my password",
      newPassword: "a brand new password",
    });
    expect(res.status).toBe(400);
    const body = await json<ErrorBody>(res);
    expect(body.error.code).toBe("wrong-password");
    expect(body.error.fields?.currentPassword).toMatch(/not correct/);
    expect((await me(other)).status).toBe(200);
    const row = await db().query.users.findFirst({ where: eq(schema.users.id, user.id) });
    expect(row?.passwordHash).toBe(passwordHash);
  });

  it("refuses a new password that fails the policy", async () => {
    const res = await send("POST", "/api/auth/change-password", await asUser(user), {
      currentPassword: PASSWORD,
      newPassword: "12345678",
    });
    expect(res.status).toBe(400);
    expect((await json<ErrorBody>(res)).error.fields?.newPassword).toBeTruthy();
  });

  it("changes the password, ends every other session and keeps the caller's", async () => {
    const mine = await sessionFor(user);
    const thief = await sessionFor(user);
    const res = await send("POST", "/api/auth/change-password", bearer(mine), {
      currentPassword: PASSWORD,
      newPassword: "a brand new password",
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ modifiedCount: 1, sessionsEnded: 1 });
    expect((await me(mine)).status).toBe(200);
    expect((await me(thief)).status).toBe(401);
    const oldLogin = await send("POST", "/api/auth/login", {}, { email: user.email, password: PASSWORD });
    expect(oldLogin.status).toBe(401);
    const newLogin = await send("POST", "/api/auth/login", {}, { email: user.email, password: "a brand new password" });
    expect(newLogin.status).toBe(200);
  });

  it("tells the owner by email, naming that other devices were signed out", async () => {
    const box = mailbox();
    const res = await sendWith(
      box.env(),
      "POST",
      "/api/auth/change-password",
      { currentPassword: PASSWORD, newPassword: "a brand new password" },
      await asUser(user),
    );
    expect(res.status).toBe(200);
    const told = box.to(user.email);
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toMatch(/password was changed/);
    expect(told[0]!.text).toContain("every other device has been signed out");
  });

  it("limits wrong current passwords per account (429)", async () => {
    const headers = await asUser(user);
    let last = 0;
    for (let i = 0; i < 11; i++) {
      const res = await send("POST", "/api/auth/change-password", headers, {
        currentPassword: `wrong ${i}`,
        newPassword: "a brand new password",
      });
      last = res.status;
    }
    expect(last).toBe(429);
  });

  it("tells a Google-only account to set a password through the reset link", async () => {
    const google = await makeUser({ googleSub: `g-${newId()}` });
    const res = await send("POST", "/api/auth/change-password", await asUser(google), {
      currentPassword: "",
      newPassword: "a brand new password",
    });
    expect(res.status).toBe(400);
    expect((await json<ErrorBody>(res)).error.code).toBe("no-password");
  });
});

describe("signed-in sessions", () => {
  it("lists the account's own sessions with the current one marked, never another account's", async () => {
    const mine = await sessionFor(user);
    await sessionFor(user);
    const stranger = await makeUser();
    await sessionFor(stranger);
    const res = await send("GET", "/api/auth/sessions", bearer(mine));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
    const list = await json<{ _id: string; current: boolean; device: string }[]>(res);
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.every((s) => typeof s.device === "string")).toBe(true);
  });

  it("signs out everywhere else, keeping this session", async () => {
    const mine = await sessionFor(user);
    const a = await sessionFor(user);
    const b = await sessionFor(user);
    const res = await send("POST", "/api/auth/sessions/end-others", bearer(mine));
    expect(await json(res)).toEqual({ deletedCount: 2 });
    expect((await me(mine)).status).toBe(200);
    expect((await me(a)).status).toBe(401);
    expect((await me(b)).status).toBe(401);
  });

  it("signs out one session of its own, and answers 404 for someone else's", async () => {
    const mine = await sessionFor(user);
    await sessionFor(user);
    const list = await json<{ _id: string; current: boolean }[]>(await send("GET", "/api/auth/sessions", bearer(mine)));
    const other = list.find((s) => !s.current)!;
    const res = await send("DELETE", `/api/auth/sessions/${other._id}`, bearer(mine));
    expect(await json(res)).toEqual({ deletedCount: 1 });
    expect(await sessionsOf(user.id)).toBe(1);

    const stranger = await makeUser();
    const theirs = await sessionFor(stranger);
    const theirList = await json<{ _id: string }[]>(await send("GET", "/api/auth/sessions", bearer(theirs)));
    const refused = await send("DELETE", `/api/auth/sessions/${theirList[0]!._id}`, bearer(mine));
    expect(refused.status).toBe(404);
    expect((await me(theirs)).status).toBe(200);
  });
});

describe("GET /api/auth/export", () => {
  it("is a zip of my posts (drafts too) as Markdown, their images, and JSON of profile, comments, likes and saves", async () => {
    const key = `export-${newId(12)}.png`;
    await env.IMAGES.put(key, PNG, { httpMetadata: { contentType: "image/png" } });
    const published = await makeBlog(user, {
      title: 'My: "quoted" post',
      image: `/images/${key}`,
      blogDetails: `Hello\n\n![inline](/images/${key})`,
    });
    const draft = await makeBlog(user, { title: "My secret draft", status: "draft" });
    await db().insert(schema.profiles).values({
      id: newId(),
      userId: user.id,
      name: user.name,
      email: user.email,
      bio: "I write.",
      designation: "Writer",
    });
    const stranger = await makeUser({ name: "Someone Else" });
    const theirPublic = await makeBlog(stranger, { title: "Their public post" });
    const theirDraft = await makeBlog(stranger, { title: "Their hidden draft", status: "draft" });
    await db()
      .insert(schema.comments)
      .values([
        { id: newId(), blogId: theirPublic.id, userId: user.id, body: "Nice one" },
        { id: newId(), blogId: published.id, userId: stranger.id, body: "A stranger's comment" },
      ]);
    await db()
      .insert(schema.blogLikes)
      .values([
        { blogId: theirPublic.id, userId: user.id },
        { blogId: theirDraft.id, userId: user.id },
        { blogId: published.id, userId: stranger.id },
      ]);
    await db()
      .insert(schema.savedBlogs)
      .values({ id: newId(), userId: user.id, blogId: theirPublic.id, email: user.email });

    const res = await send("GET", "/api/auth/export", await asUser(user));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="edge-blog-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files).sort();

    const posts = names.filter((n) => n.startsWith("posts/"));
    expect(posts).toHaveLength(2);
    const texts = posts.map((n) => strFromU8(files[n]!));
    const mine = texts.find((t) => t.includes(published.id))!;
    expect(mine).toMatch(/^---\ntitle: "My: \\"quoted\\" post"\n/);
    expect(mine).toContain(`image: "../images/${key}"`);
    expect(mine).toContain(`![inline](../images/${key})`);
    expect(texts.some((t) => t.includes(draft.id) && t.includes('status: "draft"'))).toBe(true);
    expect(files[`images/${key}`]).toEqual(PNG);

    const profile = JSON.parse(strFromU8(files["profile.json"]!));
    expect(profile.account.email).toBe(user.email);
    expect(profile.profile.bio).toBe("I write.");
    expect(JSON.stringify(profile)).not.toContain("password");

    const comments = JSON.parse(strFromU8(files["comments.json"]!));
    expect(comments).toEqual([
      expect.objectContaining({ blogId: theirPublic.id, body: "Nice one", blogTitle: "Their public post" }),
    ]);
    const likes = JSON.parse(strFromU8(files["likes.json"]!));
    expect(likes).toHaveLength(2);
    expect(likes.find((l: { blogId: string }) => l.blogId === theirDraft.id).blogTitle).toBeNull();
    const saves = JSON.parse(strFromU8(files["saves.json"]!));
    expect(saves).toEqual([expect.objectContaining({ blogId: theirPublic.id })]);

    // Nobody else's data: not their draft's title, their comment, nor their posts.
    const everything = names.map((n) => (n.startsWith("images/") ? "" : strFromU8(files[n]!))).join("\n");
    expect(everything).not.toContain("Their hidden draft");
    expect(everything).not.toContain("A stranger's comment");
    expect(everything).not.toContain(stranger.email);
  });

  it("is limited per account (429 past 5 an hour)", async () => {
    const headers = await asUser(user);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await send("GET", "/api/auth/export", headers);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });
});

describe("DELETE /api/auth/account", () => {
  it("refuses a wrong password and keeps everything", async () => {
    const token = await sessionFor(user);
    const res = await send("DELETE", "/api/auth/account", bearer(token), { password: "wrong" });
    expect(res.status).toBe(400);
    expect((await json<ErrorBody>(res)).error.code).toBe("wrong-password");
    expect((await me(token)).status).toBe(200);
  });

  it("deletes the account with its posts and sessions, and frees the email for a new sign-up", async () => {
    const token = await sessionFor(user);
    const blog = await makeBlog(user);
    const res = await send("DELETE", "/api/auth/account", bearer(token), { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ deletedCount: 1 });
    expect(res.headers.getSetCookie().some((c) => /^__Host-session=;/.test(c))).toBe(true);
    expect((await me(token)).status).toBe(401);
    expect(await db().query.blogs.findFirst({ where: eq(schema.blogs.id, blog.id) })).toBeUndefined();
    expect(await sessionsOf(user.id)).toBe(0);

    const again = await send(
      "POST",
      "/api/auth/register",
      { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 200)}` },
      { name: "Someone New", email: user.email, password: "another password" },
    );
    expect(again.status).toBe(201);
  });

  it("keeps the last admin (409) but lets an admin go when another remains", async () => {
    await env.DB.prepare("update users set role = 'user' where role = 'admin'").run();
    const admin = await makeUser({ role: "admin", passwordHash });
    const refused = await send("DELETE", "/api/auth/account", await asUser(admin), { password: PASSWORD });
    expect(refused.status).toBe(409);
    expect((await json<ErrorBody>(refused)).error.code).toBe("last-admin");
    await makeUser({ role: "admin" });
    const ok = await send("DELETE", "/api/auth/account", await asUser(admin), { password: PASSWORD });
    expect(ok.status).toBe(200);
  });

  it("asks a Google-only account for a fresh Google sign-in, and accepts one for five minutes", async () => {
    const google = await makeUser({ googleSub: `g-${newId()}` });
    const headers = await asUser(google);
    const refused = await send("DELETE", "/api/auth/account", headers, {});
    expect(refused.status).toBe(400);
    expect((await json<ErrorBody>(refused)).error.code).toBe("reauth-required");

    const secret = env.SESSION_SECRET!;
    const stale = (await reauthCookie(google.id, secret, Date.now() - 6 * 60 * 1000)).split(";")[0]!;
    const tooOld = await send("DELETE", "/api/auth/account", { ...headers, Cookie: stale }, {});
    expect(tooOld.status).toBe(400);
    const someoneElses = (await reauthCookie(user.id, secret)).split(";")[0]!;
    expect((await send("DELETE", "/api/auth/account", { ...headers, Cookie: someoneElses }, {})).status).toBe(400);

    const fresh = (await reauthCookie(google.id, secret)).split(";")[0]!;
    const ok = await send("DELETE", "/api/auth/account", { ...headers, Cookie: fresh }, {});
    expect(ok.status).toBe(200);
    expect(await db().query.users.findFirst({ where: eq(schema.users.id, google.id) })).toBeUndefined();
  });
});
