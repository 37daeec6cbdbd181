import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Profile } from "#worker/services/profiles.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";

const profilesOf = (userId: string) => db().select().from(schema.profiles).where(eq(schema.profiles.userId, userId));
const storedProfile = (id: string) => db().query.profiles.findFirst({ where: eq(schema.profiles.id, id) });

async function makeProfile(
  user: { id: string; name: string; email: string },
  overrides: Partial<typeof schema.profiles.$inferInsert> = {},
) {
  const row = {
    id: newId(),
    userId: user.id,
    name: user.name,
    email: user.email,
    bio: "Writes about the edge.",
    designation: "Engineer",
    ...overrides,
  };
  await db().insert(schema.profiles).values(row);
  return row;
}

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describe("POST /api/profile", () => {
  it("creates the actor's own profile with name and email from the session", async () => {
    const user = await makeUser({ name: "Grace Hopper" });
    const res = await send(
      "POST",
      "/api/profile",
      { name: "Mallory", email: "mallory@example.com", bio: "Compilers.", designation: "Rear Admiral" },
      await asUser(user),
    );
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    expect(await storedProfile(insertedId)).toMatchObject({
      userId: user.id,
      name: "Grace Hopper",
      email: user.email,
      bio: "Compilers.",
      designation: "Rear Admiral",
    });
  });

  it("allows one profile per user: a second create answers 409 and changes nothing", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    expect((await send("POST", "/api/profile", { bio: "First.", designation: "Writer" }, headers)).status).toBe(201);
    const second = await send("POST", "/api/profile", { bio: "Second.", designation: "Editor" }, headers);
    expect(second.status).toBe(409);
    expect((await json<ErrorBody>(second)).error.code).toBe("profile-exists");
    expect(await profilesOf(user.id)).toEqual([expect.objectContaining({ bio: "First.", designation: "Writer" })]);
  });

  it("lets an admin create their own profile", async () => {
    const admin = await makeUser({ role: "admin" });
    const res = await send(
      "POST",
      "/api/profile",
      { bio: "Runs the place.", designation: "Admin" },
      await asUser(admin),
    );
    expect(res.status).toBe(201);
    expect(await profilesOf(admin.id)).toHaveLength(1);
  });

  it("refuses anonymous callers with 401", async () => {
    const email = `nobody-${newId()}@example.com`;
    const res = await send("POST", "/api/profile", { name: "x", email, bio: "x", designation: "x" });
    expect(res.status).toBe(401);
    expect(await db().select().from(schema.profiles).where(eq(schema.profiles.email, email))).toHaveLength(0);
  });

  it("requires bio and designation, with a message per field", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    for (const payload of [{}, { bio: "", designation: "  " }, { bio: null, designation: null }]) {
      const res = await send("POST", "/api/profile", payload, headers);
      expect(res.status).toBe(400);
      expect((await json<ErrorBody>(res)).error.fields).toEqual({
        bio: "Bio is required.",
        designation: "Designation is required.",
      });
    }
    expect(await profilesOf(user.id)).toHaveLength(0);
  });

  it("answers 400, never 500, for wrong types, huge strings and malformed bodies", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    const wrong = await send("POST", "/api/profile", { bio: 5, designation: { a: 1 } }, headers);
    expect((await json<ErrorBody>(wrong)).error.fields).toEqual({
      bio: "Bio must be text.",
      designation: "Designation must be text.",
    });
    const huge = await send(
      "POST",
      "/api/profile",
      { bio: "x".repeat(100_000), designation: "y".repeat(100_000) },
      headers,
    );
    expect(huge.status).toBe(400);
    expect((await json<ErrorBody>(huge)).error.fields).toEqual({
      bio: "Bio must be at most 1000 characters.",
      designation: "Designation must be at most 100 characters.",
    });
    expect((await send("POST", "/api/profile", "{{", headers)).status).toBe(400);
    expect((await send("POST", "/api/profile", "[]", headers)).status).toBe(400);
    expect(await profilesOf(user.id)).toHaveLength(0);
  });
});

describe("GET /api/profile?email", () => {
  it("answers your own profiles as an array, comparing emails case-insensitively", async () => {
    const user = await makeUser();
    const profile = await makeProfile(user);
    const res = await call(`/api/profile?email=${encodeURIComponent(user.email.toUpperCase())}`, {
      headers: await asUser(user),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { _id: profile.id, name: user.name, email: user.email, bio: profile.bio, designation: profile.designation },
    ]);
  });

  it("answers [] when you have no profile yet", async () => {
    const user = await makeUser();
    const res = await call(`/api/profile?email=${encodeURIComponent(user.email)}`, { headers: await asUser(user) });
    expect(await res.json()).toEqual([]);
  });

  it("refuses anonymous callers (401) and other users (403), and answers anyone's to an admin", async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const profile = await makeProfile(owner);
    const path = `/api/profile?email=${encodeURIComponent(owner.email)}`;
    expect((await call(path)).status).toBe(401);
    expect((await call(path, { headers: await asUser(stranger) })).status).toBe(403);
    const asAdmin = await call(path, { headers: await asUser(admin) });
    expect(asAdmin.status).toBe(200);
    expect((await json<Profile[]>(asAdmin)).map((p) => p._id)).toEqual([profile.id]);
  });

  it("answers 400 for a missing, invalid or huge email", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    const missing = await call("/api/profile", { headers });
    expect(missing.status).toBe(400);
    expect((await json<ErrorBody>(missing)).error.fields).toEqual({ email: "Email is required." });
    expect((await call("/api/profile?email=bad", { headers })).status).toBe(400);
    expect((await call(`/api/profile?email=${"a".repeat(100_000)}@x.io`, { headers })).status).toBe(400);
  });
});

describe("GET /api/profiles/{id}", () => {
  it("answers the owner and an admin, refuses anonymous (401) and other users (403)", async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const profile = await makeProfile(owner, { bio: "Hello." });
    const path = `/api/profiles/${profile.id}`;
    const mine = await call(path, { headers: await asUser(owner) });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual({
      _id: profile.id,
      name: owner.name,
      email: owner.email,
      bio: "Hello.",
      designation: "Engineer",
    });
    expect((await call(path, { headers: await asUser(admin) })).status).toBe(200);
    expect((await call(path)).status).toBe(401);
    expect((await call(path, { headers: await asUser(stranger) })).status).toBe(403);
  });

  it("answers 404 for unknown or malformed ids", async () => {
    const user = await makeUser();
    const headers = await asUser(user);
    expect((await call("/api/profiles/zzzzzzzzzzzzzzzzzzzz", { headers })).status).toBe(404);
    expect((await call(`/api/profiles/${"%00".repeat(100)}`, { headers })).status).toBe(404);
  });
});

describe("PUT /api/profiles/{id}", () => {
  it("lets the owner change name, designation and bio, but never the email", async () => {
    const owner = await makeUser();
    const profile = await makeProfile(owner);
    const res = await send(
      "PUT",
      `/api/profiles/${profile.id}`,
      { name: "New Name", designation: "Staff Engineer", bio: "Now at the edge.", email: "mallory@example.com" },
      await asUser(owner),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ modifiedCount: 1 });
    expect(await storedProfile(profile.id)).toMatchObject({
      name: "New Name",
      designation: "Staff Engineer",
      bio: "Now at the edge.",
      email: owner.email,
    });
  });

  it("keeps the bio when it is missing, and empties it when it is sent empty (issue 47)", async () => {
    const owner = await makeUser();
    const profile = await makeProfile(owner, { bio: "Keep me." });
    const headers = await asUser(owner);
    await send("PUT", `/api/profiles/${profile.id}`, { name: "Renamed", designation: "Engineer" }, headers);
    expect(await storedProfile(profile.id)).toMatchObject({ name: "Renamed", bio: "Keep me." });
    const emptied = await send(
      "PUT",
      `/api/profiles/${profile.id}`,
      { name: "Renamed", designation: "Engineer", bio: "  " },
      headers,
    );
    expect(await emptied.json()).toEqual({ modifiedCount: 1 });
    expect(await storedProfile(profile.id)).toMatchObject({ bio: "" });
  });

  it("answers modifiedCount 0 without writing when nothing changes", async () => {
    const owner = await makeUser();
    const profile = await makeProfile(owner);
    const before = await storedProfile(profile.id);
    const headers = await asUser(owner);
    for (const payload of [
      { name: profile.name, designation: profile.designation },
      { name: ` ${profile.name} `, designation: profile.designation, bio: profile.bio },
    ]) {
      const res = await send("PUT", `/api/profiles/${profile.id}`, payload, headers);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ modifiedCount: 0 });
    }
    expect(await storedProfile(profile.id)).toEqual(before);
  });

  it("requires name and designation, with a message per field", async () => {
    const owner = await makeUser();
    const profile = await makeProfile(owner);
    const before = await storedProfile(profile.id);
    const headers = await asUser(owner);
    for (const payload of [{}, { name: "", designation: "  ", bio: "New bio" }]) {
      const res = await send("PUT", `/api/profiles/${profile.id}`, payload, headers);
      expect(res.status).toBe(400);
      expect((await json<ErrorBody>(res)).error.fields).toEqual({
        name: "Name is required.",
        designation: "Designation is required.",
      });
    }
    expect(await storedProfile(profile.id)).toEqual(before);
  });

  it("answers 400, never 500, for wrong types, huge strings and malformed bodies", async () => {
    const owner = await makeUser();
    const profile = await makeProfile(owner);
    const before = await storedProfile(profile.id);
    const headers = await asUser(owner);
    const wrong = await send("PUT", `/api/profiles/${profile.id}`, { name: true, designation: 3, bio: [] }, headers);
    expect((await json<ErrorBody>(wrong)).error.fields).toEqual({
      name: "Name must be text.",
      designation: "Designation must be text.",
      bio: "Bio must be text.",
    });
    const huge = await send(
      "PUT",
      `/api/profiles/${profile.id}`,
      { name: "n".repeat(100_000), designation: "Engineer", bio: "b".repeat(100_000) },
      headers,
    );
    expect(huge.status).toBe(400);
    expect(Object.keys((await json<ErrorBody>(huge)).error.fields ?? {}).sort()).toEqual(["bio", "name"]);
    expect((await send("PUT", `/api/profiles/${profile.id}`, "nope", headers)).status).toBe(400);
    expect(await storedProfile(profile.id)).toEqual(before);
  });

  it("refuses anonymous callers (401) and other users (403), changing nothing; an admin may edit", async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const profile = await makeProfile(owner);
    const before = await storedProfile(profile.id);
    const path = `/api/profiles/${profile.id}`;
    const payload = { name: "Hijacked", designation: "Hijacker" };
    expect((await send("PUT", path, payload)).status).toBe(401);
    expect((await send("PUT", path, payload, await asUser(stranger))).status).toBe(403);
    expect(await storedProfile(profile.id)).toEqual(before);
    const asAdmin = await send("PUT", path, { name: "Moderated", designation: "Engineer" }, await asUser(admin));
    expect(await asAdmin.json()).toEqual({ modifiedCount: 1 });
    expect(await storedProfile(profile.id)).toMatchObject({ name: "Moderated", userId: owner.id, email: owner.email });
  });

  it("answers 404 for unknown ids", async () => {
    const user = await makeUser();
    const res = await send(
      "PUT",
      "/api/profiles/zzzzzzzzzzzzzzzzzzzz",
      { name: "a", designation: "b" },
      await asUser(user),
    );
    expect(res.status).toBe(404);
  });
});
