import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#worker/auth/passwords.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { PublicUser } from "#worker/services/accounts/model.ts";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { call, json } from "../support/http";

type Row = Awaited<ReturnType<typeof makeUser>>;
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  call(path, {
    method,
    headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Every user's id, email and role: what a refused call must leave exactly as it was. */
const usersState = () =>
  db()
    .select({ id: schema.users.id, email: schema.users.email, role: schema.users.role, name: schema.users.name })
    .from(schema.users)
    .orderBy(asc(schema.users.id));
const sessionsOf = async (userId: string) =>
  (await db().select().from(schema.sessions).where(eq(schema.sessions.userId, userId))).length;
const path = (email: string) => `/api/users/admin/${encodeURIComponent(email)}`;
const roleOf = async (userId: string) =>
  (await db().query.users.findFirst({ where: eq(schema.users.id, userId) }))?.role;

async function expectRefused(res: Response, status: 401 | 403, before: unknown) {
  expect(res.status).toBe(status);
  expect((await json<ErrorBody>(res)).error.code).toBe(status === 401 ? "unauthorized" : "forbidden");
  expect(await usersState()).toEqual(before);
}

let admin: Row;
let user: Row;
let other: Row;
let anon: Record<string, string>;
let asAdmin: Record<string, string>;
let asMember: Record<string, string>;
let asOther: Record<string, string>;

beforeAll(async () => {
  // This file counts admins (last-admin rule), so it starts from no users at all.
  await env.DB.batch([
    env.DB.prepare("delete from blogs"),
    env.DB.prepare("delete from users"),
    env.DB.prepare("delete from rate_limits"),
  ]);
});

beforeEach(async () => {
  const passwordHash = await hashPassword("correct horse");
  admin = await makeUser({ name: "Admin", role: "admin", passwordHash });
  user = await makeUser({ name: "Member", passwordHash });
  other = await makeUser({ name: "Other", passwordHash });
  anon = {};
  asAdmin = await asUser(admin);
  asMember = await asUser(user);
  asOther = await asUser(other);
});

describe("POST /api/jwt", () => {
  it("refuses a visitor who only names an email, the admin's above all (401, no session)", async () => {
    for (const target of [user, admin]) {
      const before = await sessionsOf(target.id);
      const res = await send("POST", "/api/jwt", anon, { email: target.email });
      expect(res.status).toBe(401);
      expect(await json<Record<string, unknown>>(res)).not.toHaveProperty("token");
      expect(await sessionsOf(target.id)).toBe(before);
    }
  });

  it("refuses a wrong password with the generic login error", async () => {
    const before = await sessionsOf(admin.id);
    const res = await send("POST", "/api/jwt", anon, { email: admin.email, password: "wrong horse" });
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ error: { code: "invalid-credentials", message: "Invalid email or password." } });
    expect(await sessionsOf(admin.id)).toBe(before);
  });

  it("issues a working token for the right password", async () => {
    const res = await send("POST", "/api/jwt", anon, { email: user.email.toUpperCase(), password: "correct horse" });
    expect(res.status).toBe(200);
    const body = await json<{ token: string }>(res);
    expect(Object.keys(body)).toEqual(["token"]);
    expect(
      (await json<PublicUser>(await call("/api/auth/me", { headers: { Authorization: `Bearer ${body.token}` } })))._id,
    ).toBe(user.id);
  });

  it("issues a fresh token to a signed-in user for their own email (any case), bound to the same session", async () => {
    const before = await sessionsOf(user.id);
    const res = await send("POST", "/api/jwt", asMember, { email: user.email.toUpperCase() });
    expect(res.status).toBe(200);
    const { token } = await json<{ token: string }>(res);
    expect(`Bearer ${token}`).not.toBe(asMember.Authorization);
    // No new session: the token names the asking one and ends with it (tests/services/sessions.test.ts).
    expect(await sessionsOf(user.id)).toBe(before);
    expect(
      (await json<PublicUser>(await call("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } })))._id,
    ).toBe(user.id);
  });

  it("refuses a signed-in user, or even an admin, a token for someone else's email (403)", async () => {
    for (const [headers, target] of [
      [asMember, admin],
      [asOther, user],
      [asAdmin, user],
    ] as const) {
      const before = await sessionsOf(target.id);
      const res = await send("POST", "/api/jwt", headers, { email: target.email });
      expect(res.status).toBe(403);
      expect(await sessionsOf(target.id)).toBe(before);
    }
  });

  it("answers 400 without a valid email", async () => {
    for (const body of [{}, { email: "" }, { email: "not-an-email" }, { email: 42 }]) {
      expect((await send("POST", "/api/jwt", asMember, body)).status).toBe(400);
    }
  });
});

describe("POST /api/users", () => {
  it("anonymous: 401 and nothing recorded", async () => {
    const before = await usersState();
    await expectRefused(
      await send("POST", "/api/users", anon, { name: "Ghost", email: "ghost@example.com" }),
      401,
      before,
    );
  });

  it("a signed-in user recording themselves: 200, never a second record", async () => {
    const before = await usersState();
    for (const email of [user.email, user.email.toUpperCase()]) {
      const res = await send("POST", "/api/users", asMember, { name: "Member", email });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ insertedId: null, message: "User already exists." });
    }
    expect(await usersState()).toEqual(before);
  });

  it("another user's email, or a new one, is refused with 403 for users and admins alike", async () => {
    const before = await usersState();
    await expectRefused(await send("POST", "/api/users", asOther, { name: "Member", email: user.email }), 403, before);
    await expectRefused(
      await send("POST", "/api/users", asMember, { name: "New", email: "brand-new@example.com" }),
      403,
      before,
    );
    await expectRefused(
      await send("POST", "/api/users", asAdmin, { name: "New", email: "brand-new@example.com" }),
      403,
      before,
    );
  });

  it("answers 400 for a missing name or email", async () => {
    const res = await send("POST", "/api/users", asMember, { email: "nope" });
    expect(res.status).toBe(400);
    expect(Object.keys((await json<ErrorBody>(res)).error.fields ?? {}).sort()).toEqual(["email", "name"]);
  });
});

describe("GET /api/users", () => {
  it("anonymous 401, users 403", async () => {
    expect((await send("GET", "/api/users", anon)).status).toBe(401);
    expect((await send("GET", "/api/users", asMember)).status).toBe(403);
    expect((await send("GET", "/api/users", asOther)).status).toBe(403);
  });

  it("admin: every user with _id, name, email, role, photoURL, emailVerified and never a hash", async () => {
    const res = await send("GET", "/api/users?limit=50", asAdmin);
    expect(res.status).toBe(200);
    const list = await json<PublicUser[]>(res);
    expect(list.length).toBe((await usersState()).length);
    expect(res.headers.get("X-Total-Count")).toBe(String(list.length));
    for (const entry of list)
      expect(Object.keys(entry).sort()).toEqual(["_id", "email", "emailVerified", "name", "photoURL", "role"]);
    expect(list.find((u) => u._id === user.id)).toEqual({
      _id: user.id,
      name: "Member",
      email: user.email,
      role: "user",
      photoURL: null,
      emailVerified: true,
    });
    expect(JSON.stringify(list)).not.toContain("pbkdf2");
  });
});

describe("DELETE /api/users/{id}", () => {
  it("anonymous 401, a user deleting another or themselves 403, and the account stays", async () => {
    const before = await usersState();
    await expectRefused(await send("DELETE", `/api/users/${user.id}`, anon), 401, before);
    await expectRefused(await send("DELETE", `/api/users/${user.id}`, asOther), 403, before);
    await expectRefused(await send("DELETE", `/api/users/${user.id}`, asMember), 403, before);
    await expectRefused(await send("DELETE", `/api/users/${admin.id}`, asMember), 403, before);
  });

  it("admin: deletes the user with their sessions, profile, saved entries, likes, comments and blogs", async () => {
    const d = db();
    const theirBlog = await makeBlog(user);
    const otherBlog = await makeBlog(other);
    await d
      .insert(schema.profiles)
      .values({ id: newId(), userId: user.id, name: user.name, email: user.email, bio: "Hi", designation: "Writer" });
    await d.insert(schema.savedBlogs).values([
      { id: newId(), userId: user.id, blogId: otherBlog.id, email: user.email },
      // Someone else's bookmark of the deleted user's blog goes with the blog.
      { id: newId(), userId: other.id, blogId: theirBlog.id, email: other.email },
    ]);
    await d.insert(schema.blogLikes).values({ blogId: otherBlog.id, userId: user.id });
    await d.insert(schema.comments).values({ id: newId(), blogId: otherBlog.id, userId: user.id, body: "Nice" });
    const reviewId = newId();
    await d.insert(schema.reviews).values({
      id: reviewId,
      userId: user.id,
      name: "Member",
      designation: "Reader",
      review: "Good",
      image: "/images/test-image-0001.png",
    });
    const token = asMember.Authorization;

    const res = await send("DELETE", `/api/users/${user.id}`, asAdmin);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ deletedCount: 1 });

    expect(await d.select().from(schema.users).where(eq(schema.users.id, user.id))).toHaveLength(0);
    expect(await sessionsOf(user.id)).toBe(0);
    expect(await d.select().from(schema.profiles).where(eq(schema.profiles.userId, user.id))).toHaveLength(0);
    expect(await d.select().from(schema.blogs).where(eq(schema.blogs.authorId, user.id))).toHaveLength(0);
    expect(await d.select().from(schema.savedBlogs).where(eq(schema.savedBlogs.userId, user.id))).toHaveLength(0);
    expect(await d.select().from(schema.savedBlogs).where(eq(schema.savedBlogs.blogId, theirBlog.id))).toHaveLength(0);
    expect(await d.select().from(schema.blogLikes).where(eq(schema.blogLikes.userId, user.id))).toHaveLength(0);
    expect(await d.select().from(schema.comments).where(eq(schema.comments.userId, user.id))).toHaveLength(0);
    // Testimonials are the site's, not the account's: they stay, unlinked.
    expect((await d.query.reviews.findFirst({ where: eq(schema.reviews.id, reviewId) }))?.userId).toBeNull();
    // Everyone else's content is untouched.
    expect(await d.select().from(schema.blogs).where(eq(schema.blogs.id, otherBlog.id))).toHaveLength(1);
    expect((await call("/api/auth/me", { headers: { Authorization: token! } })).status).toBe(401);
  });

  it("admin: cannot delete their own account here (403), so an admin always remains", async () => {
    const before = await usersState();
    const res = await send("DELETE", `/api/users/${admin.id}`, asAdmin);
    expect(res.status).toBe(403);
    expect((await json<ErrorBody>(res)).error.code).toBe("cannot-delete-self");
    expect(await usersState()).toEqual(before);
  });

  it("admin: 404 for an unknown or malformed id", async () => {
    const before = await usersState();
    for (const id of ["doesnotexist123", "NOT%20AN%20ID", "x"]) {
      expect((await send("DELETE", `/api/users/${id}`, asAdmin)).status).toBe(404);
    }
    expect(await usersState()).toEqual(before);
  });
});

describe("PUT /api/users/admin/{id}", () => {
  it("anonymous 401; a user (even for themselves) 403; nothing changes", async () => {
    const before = await usersState();
    await expectRefused(await send("PUT", `/api/users/admin/${user.id}`, anon), 401, before);
    await expectRefused(await send("PUT", `/api/users/admin/${user.id}`, asMember), 403, before);
    await expectRefused(await send("PUT", `/api/users/admin/${user.id}`, asOther), 403, before);
  });

  it("admin: makes an admin (modifiedCount 1), then 0 when already one", async () => {
    const first = await send("PUT", `/api/users/admin/${user.id}`, asAdmin);
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({ modifiedCount: 1 });
    expect(await roleOf(user.id)).toBe("admin");
    // The new role applies to the user's existing session at once.
    expect((await send("GET", "/api/users", asMember)).status).toBe(200);
    expect(await json(await send("PUT", `/api/users/admin/${user.id}`, asAdmin))).toEqual({ modifiedCount: 0 });
  });

  it("admin: 404 for an unknown id", async () => {
    expect((await send("PUT", "/api/users/admin/doesnotexist123", asAdmin)).status).toBe(404);
  });
});

describe("DELETE /api/users/admin/{id}", () => {
  it("anonymous 401; a user 403; the admin stays an admin", async () => {
    const before = await usersState();
    await expectRefused(await send("DELETE", `/api/users/admin/${admin.id}`, anon), 401, before);
    await expectRefused(await send("DELETE", `/api/users/admin/${admin.id}`, asMember), 403, before);
    await expectRefused(await send("DELETE", `/api/users/admin/${admin.id}`, asOther), 403, before);
  });

  it("admin: revokes another admin (1), and answers 0 for someone who is not one", async () => {
    await db().update(schema.users).set({ role: "admin" }).where(eq(schema.users.id, other.id));
    const res = await send("DELETE", `/api/users/admin/${other.id}`, asAdmin);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ modifiedCount: 1 });
    expect(await roleOf(other.id)).toBe("user");
    expect(await json(await send("DELETE", `/api/users/admin/${user.id}`, asAdmin))).toEqual({ modifiedCount: 0 });
  });

  it("refuses to remove the last admin with 409 last-admin", async () => {
    // Leave exactly one admin: ours.
    await db().update(schema.users).set({ role: "user" }).where(eq(schema.users.role, "admin"));
    await db().update(schema.users).set({ role: "admin" }).where(eq(schema.users.id, admin.id));
    const before = await usersState();
    const res = await send("DELETE", `/api/users/admin/${admin.id}`, asAdmin);
    expect(res.status).toBe(409);
    const body = await json<ErrorBody>(res);
    expect(body.error.code).toBe("last-admin");
    expect(body.error.message).toMatch(/last admin/i);
    expect(await usersState()).toEqual(before);
    expect(await roleOf(admin.id)).toBe("admin");
  });

  it("an admin may step down while another admin remains", async () => {
    await db().update(schema.users).set({ role: "admin" }).where(eq(schema.users.id, other.id));
    expect(await json(await send("DELETE", `/api/users/admin/${admin.id}`, asAdmin))).toEqual({ modifiedCount: 1 });
    expect(await roleOf(admin.id)).toBe("user");
    expect((await send("GET", "/api/users", asAdmin)).status).toBe(403);
  });
});

describe("GET /api/users/admin/{email}", () => {
  it("anonymous 401", async () => {
    expect((await send("GET", path(user.email), anon)).status).toBe(401);
  });

  it("anyone may ask about themselves, in any case", async () => {
    expect(await json(await send("GET", path(user.email.toUpperCase()), asMember))).toEqual({ admin: false });
    expect(await json(await send("GET", path(admin.email), asAdmin))).toEqual({ admin: true });
  });

  it("a user asking about someone else gets 403", async () => {
    const res = await send("GET", path(admin.email), asMember);
    expect(res.status).toBe(403);
    expect((await send("GET", path(user.email), asOther)).status).toBe(403);
  });

  it("an admin may ask about anyone; unknown emails are not admins; malformed ones are 400", async () => {
    expect(await json(await send("GET", path(user.email), asAdmin))).toEqual({ admin: false });
    expect(await json(await send("GET", path("nobody-here@example.com"), asAdmin))).toEqual({ admin: false });
    expect((await send("GET", path("not an email"), asAdmin)).status).toBe(400);
  });
});

describe("ADMIN_EMAILS", () => {
  // Whoever registers the owner's address first must not become admin. It takes the link
  // mailed to that address (tests/api/email-verification.test.ts shows the promotion).
  it("an admin@example.com (any case) password sign-up is not admin until verified: 403 on admin calls", async () => {
    const res = await send(
      "POST",
      "/api/auth/register",
      {},
      { name: "Owner", email: "Admin@Example.com", password: "correct horse" },
    );
    expect(res.status).toBe(201);
    const { token, user: created } = await json<{ token: string; user: PublicUser }>(res);
    expect(created).toMatchObject({ email: "admin@example.com", role: "user", emailVerified: false });
    expect(await json(await send("GET", path("admin@example.com"), { Authorization: `Bearer ${token}` }))).toEqual({
      admin: false,
    });
    expect((await send("GET", "/api/users", { Authorization: `Bearer ${token}` })).status).toBe(403);

    const plain = await send(
      "POST",
      "/api/auth/register",
      {},
      { name: "Plain", email: `plain-${Date.now()}@example.com`, password: "correct horse" },
    );
    expect((await json<{ user: PublicUser }>(plain)).user.role).toBe("user");
  });
});
