import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { NotFound, RateLimited, Unauthorized } from "#worker/services/shared/errors.ts";
import { LIKES_PER_WINDOW, LIKE_WINDOW_SECONDS } from "#worker/services/likes.ts";
import { COALESCE_MS } from "#worker/cache/purge.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeBlog, makeUser, makeUsers } from "../support/factories";

const services = () => createServices(env);
const actor = (u: { id: string; name: string; email: string }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: "user",
  photoURL: null,
});

async function stored(blogId: string) {
  const [row] = await db().select({ likes: schema.blogs.likes }).from(schema.blogs).where(eq(schema.blogs.id, blogId));
  const rows = await db().select().from(schema.blogLikes).where(eq(schema.blogLikes.blogId, blogId));
  return { likes: row?.likes, rows: rows.length };
}

describe("likes", () => {
  let author: Awaited<ReturnType<typeof makeUser>>;
  beforeAll(async () => {
    author = await makeUser({ name: "Author" });
  });

  it("likes on the first press and takes it back on the second", async () => {
    const blog = await makeBlog(author);
    const reader = actor(await makeUser());
    expect((await services().reading.post(reader, blog.id)).liked).toBe(false);
    expect(await services().likes.toggle(reader, blog.id)).toEqual({ liked: true, likes: 1 });
    expect((await services().reading.post(reader, blog.id)).liked).toBe(true);
    expect(await stored(blog.id)).toEqual({ likes: 1, rows: 1 });
    expect(await services().likes.toggle(reader, blog.id)).toEqual({ liked: false, likes: 0 });
    expect((await services().reading.post(reader, blog.id)).liked).toBe(false);
    expect(await stored(blog.id)).toEqual({ likes: 0, rows: 0 });
  });

  it("keeps one like per user and blog, and counts each user once", async () => {
    const blog = await makeBlog(author);
    const [a, b] = [actor(await makeUser()), actor(await makeUser())];
    await services().likes.toggle(a, blog.id);
    expect(await services().likes.toggle(b, blog.id)).toEqual({ liked: true, likes: 2 });
    expect(await services().likes.toggle(a, blog.id)).toEqual({ liked: false, likes: 1 });
    const aRows = await db()
      .select()
      .from(schema.blogLikes)
      .where(and(eq(schema.blogLikes.blogId, blog.id), eq(schema.blogLikes.userId, a.id)));
    expect(aRows).toHaveLength(0);
    expect(await stored(blog.id)).toEqual({ likes: 1, rows: 1 });
    // Another blog's likes are its own.
    const other = await makeBlog(author);
    expect(await services().likes.toggle(a, other.id)).toEqual({ liked: true, likes: 1 });
    expect(await stored(blog.id)).toEqual({ likes: 1, rows: 1 });
  });

  it("gives the exact count when 25 people like at once", async () => {
    const blog = await makeBlog(author);
    // The count is exact because each like and its recount are one D1 batch (one transaction). The readers are
    // written in one statement: 25 separate inserts made this test's time, not its likes, and on a busy machine
    // that once ran it past its timeout.
    const readers = await makeUsers(25);
    const results = await Promise.all(readers.map((r) => services().likes.toggle(actor(r), blog.id)));
    expect(results.every((r) => r.liked)).toBe(true);
    expect(Math.max(...results.map((r) => r.likes))).toBe(25);
    expect(await stored(blog.id)).toEqual({ likes: 25, rows: 25 });
    // And 10 of them taking it back at once, while 5 new people like it.
    const newcomers = await makeUsers(5);
    await Promise.all([
      ...readers.slice(0, 10).map((r) => services().likes.toggle(actor(r), blog.id)),
      ...newcomers.map((r) => services().likes.toggle(actor(r), blog.id)),
    ]);
    expect(await stored(blog.id)).toEqual({ likes: 20, rows: 20 });
  });

  it("says NotFound for an unknown or malformed blog and stores nothing", async () => {
    const reader = actor(await makeUser());
    await expect(services().likes.toggle(reader, "zzzzzzzzzzzzzzzzzzzz")).rejects.toBeInstanceOf(NotFound);
    await expect(services().likes.toggle(reader, "'; delete from blogs;--")).rejects.toBeInstanceOf(NotFound);
    const rows = await db().select().from(schema.blogLikes).where(eq(schema.blogLikes.userId, reader.id));
    expect(rows).toHaveLength(0);
  });

  it("refuses a visitor and changes nothing", async () => {
    const blog = await makeBlog(author);
    await expect(services().likes.toggle(null, blog.id)).rejects.toBeInstanceOf(Unauthorized);
    expect(await stored(blog.id)).toEqual({ likes: 0, rows: 0 });
    expect((await services().reading.post(null, blog.id)).liked).toBe(false);
  });
});

describe("likes under a loop", () => {
  it(`a like loop is rate-limited: ${LIKES_PER_WINDOW} presses per ${LIKE_WINDOW_SECONDS / 60} minutes`, async () => {
    const author = await makeUser();
    const blog = await makeBlog(author);
    const reader = actor(await makeUser());
    let refused = 0;
    for (let i = 0; i < LIKES_PER_WINDOW + 5; i++) {
      try {
        await services().likes.toggle(reader, blog.id);
      } catch (err) {
        expect(err).toBeInstanceOf(RateLimited);
        refused++;
      }
    }
    expect(refused).toBe(5);
  });

  it("a like purges only blog:{id}, and a loop of likes leaves the purge count bounded (coalesced)", async () => {
    const author = await makeUser();
    const blog = await makeBlog(author);
    const purges: string[][] = [];
    const pending: Promise<unknown>[] = [];
    // Cloudflare's purge, the platform's side (as in production, where ctx.cache exists).
    const ctx = {
      waitUntil: (p: Promise<unknown>) => void pending.push(p),
      passThroughOnException: () => {},
      cache: {
        purge: async ({ tags }: { tags: string[] }) => {
          purges.push(tags);
          return { success: true, errors: [] };
        },
      },
    } as unknown as ExecutionContext;
    const likes = createServices(env, ctx).likes;
    const readers = await Promise.all(Array.from({ length: 40 }, async () => actor(await makeUser())));
    for (const reader of readers) await likes.toggle(reader, blog.id);
    await Promise.all(pending);
    expect(purges.every((tags) => tags.length === 1 && tags[0] === `blog:${blog.id}`)).toBe(true);
    // 40 likes within a few seconds: one purge at once, then at most one per pause.
    expect(purges.length).toBeGreaterThanOrEqual(1);
    expect(purges.length).toBeLessThanOrEqual(1 + Math.ceil(10_000 / COALESCE_MS));
    expect(purges.length).toBeLessThan(10);
  });
});
