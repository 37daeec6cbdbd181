import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "#worker/env.ts";
import { createServices } from "#worker/services/index.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeBlog, makeUser } from "../support/factories";

/**
 * The Worker's env with a D1 binding that counts round trips: each statement run on its own and
 * each batch is one trip to the database.
 */
function countingEnv() {
  const real = env.DB;
  const unwrap = new WeakMap<object, D1PreparedStatement>();
  const counter = { trips: 0 };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...args: unknown[]) => wrap(target.bind(...args));
        if (prop === "all" || prop === "raw" || prop === "run" || prop === "first") {
          return (...args: unknown[]) => {
            counter.trips++;
            return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    unwrap.set(proxy, stmt);
    return proxy;
  };
  const DB = new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql));
      if (prop === "batch") {
        return (stmts: D1PreparedStatement[]) => {
          counter.trips++;
          return target.batch(stmts.map((s) => unwrap.get(s) ?? s));
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { env: { ...(env as unknown as Env), DB }, counter };
}

const actor = (u: { id: string; name: string; email: string }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: "user",
  photoURL: null,
});

describe("reading pages' loaders", () => {
  let reader: Actor;
  let blogId: string;
  beforeAll(async () => {
    const author = await makeUser();
    reader = actor(await makeUser({ name: "Reader" }));
    blogId = (await makeBlog(author, { title: "Counted" })).id;
    const services = createServices(env);
    await services.comments.create(reader, blogId, { body: "Nice" });
    await services.likes.toggle(reader, blogId);
    await services.savedBlogs.save(reader, { blogId });
  });

  it("/allBlogs gathers the page, total, latest and saved blogs in one D1 round trip", async () => {
    const { env: counted, counter } = countingEnv();
    const listing = await createServices(counted).reading.listing(reader, { q: "counted", page: 1 });
    expect(counter.trips).toBe(1);
    expect(listing.results.items.map((b) => b.title)).toContain("Counted");
    expect(listing.latest.length).toBeGreaterThan(0);
    expect(listing.saved?.[0]).toMatchObject({
      blogId,
      blog: { _id: blogId, title: "Counted", category: "Technology" },
    });

    const visitor = countingEnv();
    const forVisitor = await createServices(visitor.env).reading.listing(null, {});
    expect(visitor.counter.trips).toBe(1);
    expect(forVisitor.saved).toBeNull();
  });

  it("/blogs/{id} gathers the blog, comments, like and save state in one D1 round trip, then its related posts in one more", async () => {
    const { env: counted, counter } = countingEnv();
    const post = await createServices(counted).reading.post(reader, blogId);
    // The related posts' similarity is a search on the post's own title, so it waits for the first trip.
    expect(counter.trips).toBe(2);
    expect(post).toMatchObject({ blog: { _id: blogId, likes: 1 }, liked: true, saved: true });
    expect(post.comments.map((c) => [c.body, c.author.name])).toEqual([["Nice", "Reader"]]);

    const visitor = countingEnv();
    expect(await createServices(visitor.env).reading.post(null, blogId)).toMatchObject({ liked: false, saved: false });
    expect(visitor.counter.trips).toBe(2);
  });

  it("a like costs one round trip, unliking two, and unknown posts are NotFound (malformed ones without touching D1)", async () => {
    const other = actor(await makeUser());
    const { env: counted, counter } = countingEnv();
    const services = createServices(counted);
    // Each write also purges the edge cache: locally that is one look-up in the tag index (nothing is
    // cached here, so nothing to delete); in production it is Workers Cache's purge, no D1 at all.
    const purgeTrips = 1;
    // A like also tells the post's writer (Likes summed per post and day): a look-up and an upsert.
    const notifyTrips = 2;
    await services.likes.toggle(other, blogId);
    expect(counter.trips).toBe(1 + purgeTrips + notifyTrips);
    await services.likes.toggle(other, blogId);
    expect(counter.trips).toBe(3 + 2 * purgeTrips + notifyTrips);
    await expect(services.reading.post(other, "zzzzzzzzzzzzzzzzzzzz")).rejects.toBeInstanceOf(NotFound);
    const before = counter.trips;
    await expect(services.reading.post(other, "no such id!")).rejects.toBeInstanceOf(NotFound);
    expect(counter.trips).toBe(before);
  });
});
