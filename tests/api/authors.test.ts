import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import type { Author } from "#worker/services/authors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { asUser, db, makeUser } from "../support/factories";
import { call, json, send } from "../support/http";

type Fields = { error: { code: string; fields: Record<string, string> } };

const valid = () => ({
  name: "Grace Hopper",
  bio: "Wrote the first compiler.",
  image: "https://example.com/grace.png",
  twitter: "https://twitter.com/grace",
  linkedin: "https://linkedin.com/in/grace",
  github: "https://github.com/grace",
});

async function makeAuthor(overrides: Partial<typeof schema.authors.$inferInsert> = {}) {
  const row = {
    id: newId(),
    name: `Author ${newId(6)}`,
    bio: "A bio.",
    img: "https://example.com/a.png",
    ...overrides,
  };
  await db().insert(schema.authors).values(row);
  return row;
}

const authorRow = (id: string) => env.DB.prepare("select * from authors where id = ?").bind(id).first();
const authorsNamed = (name: string) =>
  env.DB.prepare("select count(*) as n from authors where name = ?")
    .bind(name)
    .first<{ n: number }>()
    .then((r) => r?.n);

/** Anonymous, a user, another user, an admin: authors are admin business, so both users are refused alike. */
async function cast() {
  const user = await makeUser();
  const other = await makeUser();
  const admin = await makeUser({ role: "admin" });
  return {
    refused: [
      [{}, 401],
      [await asUser(user), 403],
      [await asUser(other), 403],
    ] as [Record<string, string>, number][],
    asAdmin: await asUser(admin),
  };
}

describe("GET /api/authors (public)", () => {
  it("lists authors in the order they were added, with img and only the links they have", async () => {
    const first = await makeAuthor({ createdAt: Date.now() - 60_000, twitter: "https://twitter.com/first" });
    const second = await makeAuthor({ createdAt: Date.now() });
    const res = await call("/api/authors");
    expect(res.status).toBe(200);
    const list = await json<Author[]>(res);
    const ids = list.map((a) => a._id);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(list.find((a) => a._id === first.id)).toEqual({
      _id: first.id,
      name: first.name,
      bio: "A bio.",
      img: "https://example.com/a.png",
      twitter: "https://twitter.com/first",
      linkedin: null,
      github: null,
    });
  });
});

describe("GET /api/author (admin list) and GET /api/author/{id} (admin preload)", () => {
  it("answers the list and one author to an admin only", async () => {
    const { refused, asAdmin } = await cast();
    const author = await makeAuthor();
    for (const [headers, status] of refused) {
      expect((await call("/api/author", { headers })).status).toBe(status);
      expect((await call(`/api/author/${author.id}`, { headers })).status).toBe(status);
    }
    const list = await call("/api/author", { headers: asAdmin });
    expect(list.status).toBe(200);
    expect((await json<Author[]>(list)).some((a) => a._id === author.id)).toBe(true);
    const one = await call(`/api/author/${author.id}`, { headers: asAdmin });
    expect(await json<Author>(one)).toMatchObject({ _id: author.id, name: author.name, img: author.img });
  });

  it("answers 404 for unknown and malformed ids", async () => {
    const { asAdmin } = await cast();
    expect((await call(`/api/author/${newId()}`, { headers: asAdmin })).status).toBe(404);
    expect((await call("/api/author/%00%00", { headers: asAdmin })).status).toBe(404);
  });
});

describe("POST /api/addAuthor", () => {
  it("refuses anonymous callers and users, adding nothing", async () => {
    const { refused } = await cast();
    const name = `Refused ${newId(6)}`;
    for (const [headers, status] of refused) {
      expect((await send("POST", "/api/addAuthor", { ...valid(), name }, headers)).status).toBe(status);
    }
    expect(await authorsNamed(name)).toBe(0);
  });

  it("lets an admin add an author; the form's image is stored as img", async () => {
    const { asAdmin } = await cast();
    const res = await send("POST", "/api/addAuthor", valid(), asAdmin);
    expect(res.status).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(res);
    const one = await json<Author>(await call(`/api/author/${insertedId}`, { headers: asAdmin }));
    expect(one).toEqual({
      _id: insertedId,
      name: "Grace Hopper",
      bio: "Wrote the first compiler.",
      img: "https://example.com/grace.png",
      twitter: "https://twitter.com/grace",
      linkedin: "https://linkedin.com/in/grace",
      github: "https://github.com/grace",
    });
  });

  it("keeps the social links optional (missing, null or blank)", async () => {
    const { asAdmin } = await cast();
    const res = await send(
      "POST",
      "/api/addAuthor",
      { name: "No Links", bio: "Bio.", image: "/images/abcdefgh12345678.webp", twitter: "", linkedin: null },
      asAdmin,
    );
    expect(res.status).toBe(201);
    const row = await authorRow((await json<{ insertedId: string }>(res)).insertedId);
    expect(row).toMatchObject({ img: "/images/abcdefgh12345678.webp", twitter: null, linkedin: null, github: null });
  });

  it("requires name, bio and image, with a message for each", async () => {
    const { asAdmin } = await cast();
    const res = await send("POST", "/api/addAuthor", { name: " ", twitter: "https://twitter.com/x" }, asAdmin);
    expect(res.status).toBe(400);
    expect((await json<Fields>(res)).error.fields).toEqual({
      name: "Name is required.",
      bio: "Bio is required.",
      image: "Image is required.",
    });
  });

  it("refuses social links that are not http(s) links", async () => {
    const { asAdmin } = await cast();
    const name = `Bad Links ${newId(6)}`;
    const res = await send(
      "POST",
      "/api/addAuthor",
      {
        ...valid(),
        name,
        twitter: "javascript:alert(1)",
        linkedin: "/images/abcdefgh12345678.png",
        github: "not a url",
      },
      asAdmin,
    );
    expect(res.status).toBe(400);
    const fields = (await json<Fields>(res)).error.fields;
    expect(fields.twitter).toMatch(/^Twitter must be an http\(s\) link/);
    expect(fields.linkedin).toBe("LinkedIn must be an http(s) link.");
    expect(fields.github).toMatch(/^GitHub must be an http\(s\) link/);
    expect(await authorsNamed(name)).toBe(0);
  });

  it("never answers 500 for malformed input", async () => {
    const { asAdmin } = await cast();
    for (const body of [
      "{",
      "[1,2]",
      "true",
      { name: { $ne: 1 }, bio: 5, image: [] },
      { ...valid(), bio: "b".repeat(1_001) },
      { ...valid(), name: "x".repeat(200_000) },
    ]) {
      const res = await send("POST", "/api/addAuthor", body, asAdmin);
      expect(res.status).toBe(400);
    }
    const form = await call("/api/addAuthor", {
      method: "POST",
      headers: { ...asAdmin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=x",
    });
    expect(form.status).toBe(415);
  });
});

describe("PUT /api/author/{id}", () => {
  it("refuses anonymous callers and users, changing nothing", async () => {
    const { refused } = await cast();
    const author = await makeAuthor();
    const before = await authorRow(author.id);
    for (const [headers, status] of refused) {
      expect((await send("PUT", `/api/author/${author.id}`, { name: "Hacked" }, headers)).status).toBe(status);
    }
    expect(await authorRow(author.id)).toEqual(before);
  });

  it("lets an admin change any field; img replaces the picture", async () => {
    const { asAdmin } = await cast();
    const author = await makeAuthor();
    const res = await send(
      "PUT",
      `/api/author/${author.id}`,
      {
        name: "New Name",
        bio: "New bio.",
        img: "https://example.com/new.png",
        twitter: "https://x.com/new",
        linkedin: "",
        github: "https://github.com/new",
      },
      asAdmin,
    );
    expect(await json(res)).toEqual({ modifiedCount: 1 });
    expect(await authorRow(author.id)).toMatchObject({
      name: "New Name",
      bio: "New bio.",
      img: "https://example.com/new.png",
      twitter: "https://x.com/new",
      linkedin: null,
      github: "https://github.com/new",
    });
  });

  it("keeps the stored value for empty or missing fields, and answers 0 when nothing changes", async () => {
    const { asAdmin } = await cast();
    const author = await makeAuthor({ twitter: "https://twitter.com/keep" });
    const before = await authorRow(author.id);
    for (const body of [{}, { name: "", bio: "  ", img: "", twitter: null }, { name: author.name, img: author.img }]) {
      const res = await send("PUT", `/api/author/${author.id}`, body, asAdmin);
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ modifiedCount: 0 });
    }
    expect(await authorRow(author.id)).toEqual(before);
    const partial = await send("PUT", `/api/author/${author.id}`, { bio: "Only the bio." }, asAdmin);
    expect(await json(partial)).toEqual({ modifiedCount: 1 });
    expect(await authorRow(author.id)).toMatchObject({
      name: author.name,
      bio: "Only the bio.",
      img: author.img,
      twitter: "https://twitter.com/keep",
    });
  });

  it("validates what is given and answers 404 for unknown ids", async () => {
    const { asAdmin } = await cast();
    const author = await makeAuthor();
    const before = await authorRow(author.id);
    const res = await send(
      "PUT",
      `/api/author/${author.id}`,
      { name: "n".repeat(81), img: "javascript:x", github: "ftp://x" },
      asAdmin,
    );
    expect(res.status).toBe(400);
    expect(Object.keys((await json<Fields>(res)).error.fields).sort()).toEqual(["github", "img", "name"]);
    expect(await authorRow(author.id)).toEqual(before);
    expect((await send("PUT", `/api/author/${newId()}`, { name: "x" }, asAdmin)).status).toBe(404);
    expect((await send("PUT", `/api/author/${author.id}`, "not json", asAdmin)).status).toBe(400);
  });
});

describe("DELETE /api/author/{id}", () => {
  it("refuses anonymous callers and users, keeping the author", async () => {
    const { refused } = await cast();
    const author = await makeAuthor();
    for (const [headers, status] of refused) {
      expect((await call(`/api/author/${author.id}`, { method: "DELETE", headers })).status).toBe(status);
    }
    expect(await authorRow(author.id)).not.toBeNull();
  });

  it("lets an admin delete an author; then it is gone from the public list", async () => {
    const { asAdmin } = await cast();
    const author = await makeAuthor();
    const res = await call(`/api/author/${author.id}`, { method: "DELETE", headers: asAdmin });
    expect(await json(res)).toEqual({ deletedCount: 1 });
    expect((await json<Author[]>(await call("/api/authors"))).some((a) => a._id === author.id)).toBe(false);
    expect((await call(`/api/author/${author.id}`, { method: "DELETE", headers: asAdmin })).status).toBe(404);
  });
});
