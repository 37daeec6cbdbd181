import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { Forbidden, NotFound, Unauthorized, ValidationError } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { LIMITS } from "#worker/services/shared/validation.ts";
import { db, makeBlog, makeUser } from "../support/factories";

const services = () => createServices(env);
const actor = (u: {
  id: string;
  name: string;
  email: string;
  role?: "user" | "admin";
  photoUrl?: string | null;
}): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role ?? "user",
  photoURL: u.photoUrl ?? null,
});
const count = async (blogId: string) =>
  (await db().select().from(schema.comments).where(eq(schema.comments.blogId, blogId))).length;

describe("comments", () => {
  let author: Awaited<ReturnType<typeof makeUser>>;
  let ada: Actor;
  let bob: Actor;
  let admin: Actor;
  beforeAll(async () => {
    author = await makeUser({ name: "Author" });
    ada = actor(await makeUser({ name: "Ada", photoUrl: "/images/ada-avatar-0001.png" }));
    bob = actor(await makeUser({ name: "Bob" }));
    admin = actor(await makeUser({ name: "Admin", role: "admin" }));
  });

  it("stores a comment and lists them newest first with name, avatar and date", async () => {
    const blog = await makeBlog(author);
    const before = Date.now();
    const first = await services().comments.create(ada, blog.id, { body: "  First!  " });
    await services().comments.create(bob, blog.id, { body: "Second" });
    await services().comments.create(ada, blog.id, { body: "Third" });
    const list = (await services().comments.list(blog.id)).items;
    expect(list.map((c) => c.body)).toEqual(["Third", "Second", "First!"]);
    expect(list[0]).toMatchObject({ parent_id: null, replies: [], reply_count: 0, replies_next: null });
    expect(list[2]).toMatchObject({
      _id: first.insertedId,
      blog_id: blog.id,
      author: { _id: ada.id, name: "Ada", photoURL: "/images/ada-avatar-0001.png" },
    });
    expect(list[1]?.author).toEqual({ _id: bob.id, name: "Bob", photoURL: null });
    // The page loader batches the same query (D1 batches key rows by column name: no collisions).
    const post = await services().reading.post(ada, blog.id);
    expect(post.comments).toEqual(list);
    expect(Date.parse(list[2]!.created_at)).toBeGreaterThanOrEqual(before - 1000);
    // An unknown or malformed blog has no comment list at all (404), as anywhere public.
    await expect(services().comments.list(author.id.slice(0, 19) + "z")).rejects.toBeInstanceOf(NotFound);
    await expect(services().comments.list("not an id!")).rejects.toBeInstanceOf(NotFound);
  });

  it("refuses empty, over-long and huge comments with clear messages, storing nothing", async () => {
    const blog = await makeBlog(author);
    const fieldError = async (input: unknown) => {
      try {
        await services().comments.create(ada, blog.id, input);
      } catch (err) {
        expect(err).toBeInstanceOf(ValidationError);
        return (err as ValidationError).fields.body;
      }
      throw new Error("expected a ValidationError");
    };
    expect(await fieldError({ body: "" })).toBe("Comment is required.");
    expect(await fieldError({ body: "   \n  " })).toBe("Comment is required.");
    expect(await fieldError({})).toBe("Comment is required.");
    expect(await fieldError({ body: 42 })).toBe("Comment must be text.");
    expect(await fieldError({ body: "x".repeat(LIMITS.comment + 1) })).toBe(
      `Comment must be at most ${LIMITS.comment} characters.`,
    );
    expect(await fieldError({ body: "x".repeat(1_000_000) })).toBe(
      `Comment must be at most ${LIMITS.comment} characters.`,
    );
    expect(await count(blog.id)).toBe(0);
    await services().comments.create(ada, blog.id, { body: "x".repeat(LIMITS.comment) });
    expect(await count(blog.id)).toBe(1);
  });

  it("refuses visitors and unknown blogs", async () => {
    const blog = await makeBlog(author);
    await expect(services().comments.create(null, blog.id, { body: "Hi" })).rejects.toBeInstanceOf(Unauthorized);
    await expect(services().comments.create(ada, "zzzzzzzzzzzzzzzzzzzz", { body: "Hi" })).rejects.toBeInstanceOf(
      NotFound,
    );
    await expect(services().comments.create(ada, "../etc", { body: "Hi" })).rejects.toBeInstanceOf(NotFound);
    expect(await count(blog.id)).toBe(0);
  });

  it("lets its author delete a comment", async () => {
    const blog = await makeBlog(author);
    const { insertedId } = await services().comments.create(ada, blog.id, { body: "Oops" });
    expect(await services().comments.remove(ada, insertedId)).toEqual({ deletedCount: 1 });
    expect(await count(blog.id)).toBe(0);
    await expect(services().comments.remove(ada, insertedId)).rejects.toBeInstanceOf(NotFound);
  });

  it("lets an admin delete anyone's comment", async () => {
    const blog = await makeBlog(author);
    const { insertedId } = await services().comments.create(bob, blog.id, { body: "Spam" });
    expect(await services().comments.remove(admin, insertedId)).toEqual({ deletedCount: 1 });
    expect(await count(blog.id)).toBe(0);
  });

  it("refuses another user, a visitor and malformed ids, deleting nothing", async () => {
    const blog = await makeBlog(author);
    const { insertedId } = await services().comments.create(ada, blog.id, { body: "Mine" });
    await expect(services().comments.remove(bob, insertedId)).rejects.toBeInstanceOf(Forbidden);
    await expect(services().comments.remove(null, insertedId)).rejects.toBeInstanceOf(Unauthorized);
    await expect(services().comments.remove(ada, "'; drop table comments;--")).rejects.toBeInstanceOf(NotFound);
    expect(await count(blog.id)).toBe(1);
  });

  it("goes away with its blog", async () => {
    const blog = await makeBlog(author);
    await services().comments.create(ada, blog.id, { body: "Bye" });
    await db().delete(schema.blogs).where(eq(schema.blogs.id, blog.id));
    expect(await count(blog.id)).toBe(0);
  });
});
