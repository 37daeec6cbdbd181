import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { schema } from "#worker/db.ts";
import { eq } from "drizzle-orm";
import { asUser, db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { call, untilHit } from "../support/http";

/** Asks until the answer is a HIT: the MISS stores its copy in waitUntil, after the answer went out. */
async function first(path: string, init?: RequestInit): Promise<Response> {
  return call(path, init);
}

const formPost = (path: string, fields: Record<string, string>, cookie: string) =>
  call(path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    redirect: "manual",
  });

const jsonCall = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
  call(path, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe("the edge cache", () => {
  let writer: Awaited<ReturnType<typeof makeUser>>;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let blogId: string;
  let likedId: string;

  beforeAll(async () => {
    writer = await makeUser({ name: "Cache Writer" });
    admin = await makeUser({ name: "Cache Admin", email: "admin@example.com", role: "admin" });
    blogId = (await makeBlog(writer, { title: "Cached post" })).id;
    likedId = (await makeBlog(writer, { title: "Post to be liked" })).id;
  });

  it("answers each shared page and public API call with MISS, then HIT, with the shared policy and tags", async () => {
    const shared = [
      "/",
      "/about",
      "/allBlogs",
      "/allBlogs?page=2",
      "/allBlogs?category=AI",
      "/allBlogs?q=cached",
      `/blogs/${blogId}/cached-post`,
      "/contact",
      "/rss.xml",
      "/sitemap.xml",
      "/robots.txt",
      "/_root.data",
      "/allBlogs.data",
      `/blogs/${blogId}/cached-post.data`,
      "/api/blogs",
      `/api/blogs/${blogId}`,
      "/api/latest-blogs",
      "/api/authors",
      "/api/review",
    ];
    for (const path of shared) {
      const miss = await first(path);
      expect(miss.headers.get("X-Cache"), path).toBe("MISS");
      const policy = miss.headers.get("Cache-Control") ?? "";
      expect(policy, path).toMatch(/public/);
      expect(policy, path).toMatch(/max-age=0/);
      expect(policy, path).toMatch(/s-maxage=\d+/);
      expect(policy, path).toMatch(/stale-while-revalidate=\d+/);
      expect(miss.headers.get("Cache-Tag"), path).toMatch(/site/);
      expect(miss.headers.get("Vary"), path).toMatch(/Cookie/);
      const body = await miss.text();
      const hit = await untilHit(path);
      expect(hit.status, path).toBe(miss.status);
      expect(await hit.text(), path).toBe(body);
      expect(hit.headers.get("Cache-Control"), path).toBe(policy);
    }
  });

  it("bypasses the shared cache, private and unstored, for a session, a flash and every personal page", async () => {
    const cookie = `__Host-session=${await sessionFor(writer)}`;
    await untilHit(`/blogs/${blogId}/cached-post`);
    const cases: [string, RequestInit][] = [
      [`/blogs/${blogId}/cached-post`, { headers: { Cookie: cookie } }],
      ["/", { headers: { Cookie: cookie } }],
      ["/api/blogs", { headers: await asUser(writer) }],
      ["/allBlogs", { headers: { Cookie: "flash=anything" } }],
      ["/dashboard", { headers: { Cookie: cookie } }],
      ["/dashboard/writeBlogs", { headers: { Cookie: cookie } }],
      ["/dashboard/manageBlogs", { headers: { Cookie: cookie } }],
      ["/Profile", { headers: { Cookie: cookie } }],
      ["/login", {}],
      ["/register", {}],
      ["/dashboard", {}],
      ["/api/auth/me", { headers: await asUser(writer) }],
    ];
    for (const [path, init] of cases) {
      const res = await call(path, { ...init, redirect: "manual" });
      expect(res.headers.get("X-Cache"), path).toBe("BYPASS");
      expect(res.headers.get("Cache-Control"), path).toBe("private, no-store");
      expect(res.headers.get("Cache-Tag"), path).toBeNull();
      await res.body?.cancel();
    }
  });

  it("never gives a signed-in reader the shared copy: they see their own like and name", async () => {
    const reader = await makeUser({ name: "Rhea Signedin" });
    const cookie = `__Host-session=${await sessionFor(reader)}`;
    expect((await formPost(`/blogs/${blogId}/cached-post`, { intent: "like" }, cookie)).status).toBeLessThan(400);
    const anonymous = await untilHit(`/blogs/${blogId}/cached-post`);
    expect(await anonymous.text()).not.toContain("Rhea Signedin");
    const mine = await call(`/blogs/${blogId}/cached-post`, { headers: { Cookie: cookie } });
    expect(mine.headers.get("X-Cache")).toBe("BYPASS");
    const html = await mine.text();
    expect(html).toContain("Rhea Signedin");
    expect(html).toMatch(/aria-pressed="true"/);
  });

  it("a failed purge leaves the write done (and the next purge catches up)", async () => {
    await untilHit("/api/authors");
    const cache = (caches as unknown as { default: Cache }).default;
    const spy = vi.spyOn(cache, "delete").mockRejectedValue(new Error("purge service down"));
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await jsonCall(
        "POST",
        "/api/addAuthor",
        { name: "Purge Failure", bio: "Still saved.", image: "https://example.com/p.png" },
        await asUser(admin),
      );
      expect(res.status).toBe(201);
      expect(quiet).toHaveBeenCalledWith(expect.stringContaining("cache purge failed"));
    } finally {
      spy.mockRestore();
      quiet.mockRestore();
    }
    const rows = await db().select().from(schema.authors).where(eq(schema.authors.name, "Purge Failure"));
    expect(rows).toHaveLength(1);
  });

  describe("every write purges what it changed, and the next anonymous reader sees it", () => {
    type Write = {
      name: string;
      watch: () => string;
      write: () => Promise<Response>;
      shows: RegExp | string;
      gone?: boolean;
    };
    const writes = (): Write[] => [
      {
        name: "a new post (API)",
        watch: () => "/api/latest-blogs",
        write: async () =>
          jsonCall(
            "POST",
            "/api/blogs",
            {
              title: "Fresh from the writer",
              short_description: "New.",
              blog_details: "Body.",
              category: "AI",
              date_time: "2099-01-01T10:00",
              image: "https://example.com/a.png",
            },
            await asUser(writer),
          ),
        shows: "Fresh from the writer",
      },
      {
        name: "an edited post (API)",
        watch: () => `/blogs/${blogId}/cached-post`,
        write: async () =>
          jsonCall("PUT", `/api/blog/${blogId}`, { short_description: "Edited description" }, await asUser(writer)),
        shows: "Edited description",
      },
      {
        name: "a like (page action)",
        watch: () => `/api/blogs/${likedId}`,
        write: async () =>
          formPost(
            `/blogs/${likedId}/post-to-be-liked`,
            { intent: "like" },
            `__Host-session=${await sessionFor(await makeUser())}`,
          ),
        shows: /"likes":[1-9]/,
      },
      {
        name: "a comment (page action)",
        watch: () => `/blogs/${blogId}/cached-post`,
        write: async () =>
          formPost(
            `/blogs/${blogId}/cached-post`,
            { intent: "comment", body: "A comment worth caching" },
            `__Host-session=${await sessionFor(writer)}`,
          ),
        shows: "A comment worth caching",
      },
      {
        name: "a new author (API)",
        watch: () => "/api/authors",
        write: async () =>
          jsonCall(
            "POST",
            "/api/addAuthor",
            { name: "Newest Author", bio: "Bio.", image: "https://example.com/n.png" },
            await asUser(admin),
          ),
        shows: "Newest Author",
      },
      {
        name: "a review approved by an admin (API)",
        watch: () => "/",
        write: async () => {
          const sent = await jsonCall(
            "POST",
            "/api/review",
            {
              name: "Happy Reader",
              designation: "Tester",
              review: "Cache-busting praise.",
              image: "https://example.com/r.png",
            },
            await asUser(writer),
          );
          const { insertedId } = (await sent.json()) as { insertedId: string };
          // Pending until approved: the approval is the write that must purge the home page.
          return jsonCall("PUT", `/api/review/${insertedId}/status`, { status: "approved" }, await asUser(admin));
        },
        shows: "Cache-busting praise.",
      },
      {
        name: "a deleted post (API)",
        watch: () => "/rss.xml",
        write: async () => {
          const doomed = await jsonCall(
            "POST",
            "/api/blogs",
            {
              title: "Soon deleted",
              short_description: "Gone.",
              blog_details: "Body.",
              category: "AI",
              date_time: "2099-02-01T10:00",
              image: "https://example.com/d.png",
            },
            await asUser(writer),
          );
          const { insertedId } = (await doomed.json()) as { insertedId: string };
          // The list is cached with the post in it before it is deleted.
          expect(await (await untilHit("/rss.xml")).text()).toContain("Soon deleted");
          return jsonCall("DELETE", `/api/blogs/${insertedId}`, undefined, await asUser(writer));
        },
        shows: "Soon deleted",
        gone: true,
      },
      {
        name: "a deleted user's content (API)",
        watch: () => "/allBlogs",
        write: async () => {
          const leaving = await makeUser({ name: "Leaving Writer" });
          await makeBlog(leaving, { title: "Post of a leaving writer" });
          await jsonCall("POST", "/api/auth/logout", undefined, {});
          expect(await (await untilHit("/allBlogs?page=1&q=leaving")).text()).toContain("Post of a leaving writer");
          return jsonCall("DELETE", `/api/users/${leaving.id}`, undefined, await asUser(admin));
        },
        shows: "Post of a leaving writer",
        gone: true,
      },
    ];

    const names = writes().map((w) => w.name);
    it.each(names)("%s", async (name) => {
      // Built here, not at collection time: the paths need the post made in beforeAll.
      const w = writes().find((candidate) => candidate.name === name)!;
      const watch = w.name.startsWith("a deleted user") ? "/allBlogs?page=1&q=leaving" : w.watch();
      // (A deletion's own write step caches the page with the doomed content first.)
      if (!w.gone) expect(await (await untilHit(watch)).text()).not.toMatch(w.shows);
      const res = await w.write();
      expect(res.status, w.name).toBeLessThan(400);
      await res.body?.cancel();
      const after = await call(watch);
      expect(after.headers.get("X-Cache"), w.name).toBe("MISS");
      const text = await after.text();
      if (w.gone) expect(text).not.toMatch(w.shows);
      else expect(text).toMatch(w.shows);
    });
  });

  it("keeps images on their own immutable rule", async () => {
    const key = "cache-test-image-0001.png";
    await env.IMAGES.put(key, new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), {
      httpMetadata: { contentType: "image/png" },
    });
    await db().insert(schema.images).values({ key, contentType: "image/png", size: 8 });
    const res = await call(`/images/${key}`);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    await res.body?.cancel();
  });
});

describe("a copy stored after a purge", () => {
  it("is never served when the answer was made before the purge (the store runs in waitUntil)", async () => {
    const { withEdgeCache, purgeTags } = await import("#worker/cache/edge.ts");
    const path = `https://blog.test/robots.txt?race=${Date.now()}`;
    const pending: Promise<unknown>[] = [];
    const ctx = {
      waitUntil: (p: Promise<unknown>) => pending.push(p),
      passThroughOnException() {},
      props: {},
    } as unknown as ExecutionContext;
    // The store's tag index write waits at a gate: the purge happens while the copy is on its way.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowEnv = {
      ...env,
      DB: new Proxy(env.DB, {
        get(target, prop) {
          if (prop === "batch")
            return async (statements: D1PreparedStatement[]) => {
              await gate;
              return target.batch(statements);
            };
          const value = Reflect.get(target, prop);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
    };
    let version = "old";
    const render = async () => new Response(`answer: ${version}`, { headers: { "Content-Type": "text/plain" } });

    const first = await withEdgeCache(new Request(path), slowEnv, ctx, render);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    expect(await first.text()).toBe("answer: old");
    // A write: the content changes and its tags are purged, then the old answer's store completes.
    await new Promise((r) => setTimeout(r, 2));
    version = "new";
    await purgeTags(env, undefined, ["site"]);
    release();
    await Promise.all(pending);

    const again = await withEdgeCache(new Request(path), env, ctx, render);
    expect(again.headers.get("X-Cache")).toBe("MISS");
    expect(await again.text()).toBe("answer: new");
  });
});
