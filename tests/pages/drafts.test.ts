import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "#worker/index.ts";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { SCHEDULE_IN_PAST } from "#worker/services/blogs/input.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { asUser, clearContent, db, makeBlog, makeUser } from "../support/factories";
import { stopClock } from "../support/clock";
import { flashOf } from "../support/flash";
import { call, json, send } from "../support/http";
import { getPage, pngFile, postForm } from "../support/pages";

const HOUR = 60 * 60 * 1000;
const blogRow = (id: string) => db().query.blogs.findFirst({ where: eq(schema.blogs.id, id) });

/**
 * A draft (or a post scheduled for later) is read by its writer and admins only. The table
 * below is every public read of blogs (pages, their data, feeds, search, the REST lists and records):
 * each is asked by a visitor and by another signed-in reader, and none may show the hidden posts.
 */
describe("drafts and scheduled posts never leak", () => {
  let writer: Awaited<ReturnType<typeof makeUser>>;
  let other: Awaited<ReturnType<typeof makeUser>>;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let ids: { published: string; draft: string; later: string };

  beforeAll(async () => {
    await clearContent();
    writer = await makeUser({ name: "Dana Draft" });
    other = await makeUser({ name: "Otto Other" });
    admin = await makeUser({ name: "Ada Admin", role: "admin" });
    ids = {
      published: (await makeBlog(writer, { title: "Zebra published piece", category: "Travel" })).id,
      draft: (await makeBlog(writer, { title: "Zebra secret draft", category: "Travel", status: "draft" })).id,
      later: (
        await makeBlog(writer, {
          title: "Zebra future schedule",
          category: "Travel",
          status: "scheduled",
          publishAt: Date.now() + HOUR,
        })
      ).id,
    };
  });

  const publicReads = () => [
    "/",
    "/_root.data",
    "/allBlogs",
    "/allBlogs.data",
    "/allBlogs?q=Zebra",
    "/allBlogs?category=Travel",
    "/rss.xml",
    "/sitemap.xml",
    "/sitemaps/posts-1.xml",
    "/api/blogs",
    "/api/blogs?page=1&limit=10",
    "/api/latest-blogs",
    `/api/blog?email=${encodeURIComponent(writer.email)}`,
  ];

  for (const who of ["a visitor", "another reader", "the writer"] as const) {
    it(`shows ${who} no draft and no post scheduled for later on any public list`, async () => {
      const headers = who === "a visitor" ? {} : await asUser(who === "the writer" ? writer : other);
      for (const path of publicReads()) {
        const res = await call(path, { headers });
        expect(res.status, path).toBe(200);
        const body = await res.text();
        expect(body, path).not.toContain("Zebra secret draft");
        expect(body, path).not.toContain("Zebra future schedule");
        expect(body, path).not.toContain(ids.draft);
        expect(body, path).not.toContain(ids.later);
      }
      // The published one is there, so the table is reading real lists.
      expect(await (await call("/api/blogs", { headers })).text()).toContain("Zebra published piece");
    });
  }

  it("answers 404 for a hidden post's page, data and records to visitors and other readers", async () => {
    for (const id of [ids.draft, ids.later]) {
      for (const headers of [{}, await asUser(other)]) {
        for (const path of [`/blogs/${id}`, `/blogs/${id}.data`, `/api/blogs/${id}`, `/api/blog/${id}`]) {
          const res = await call(path, { headers });
          expect(res.status, path).toBe(404);
          expect(await res.text(), path).not.toContain("Zebra");
        }
      }
    }
  });

  it("lets the writer and an admin preview a draft, marked as such, never from the shared cache", async () => {
    for (const who of [writer, admin]) {
      const res = await call(`/blogs/${ids.draft}`, { headers: await asUser(who) });
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      const html = await res.text();
      expect(html).toContain("Zebra secret draft");
      expect(html).toContain("This post is a draft: only you and admins can see it.");
      const api = await call(`/api/blogs/${ids.later}`, { headers: await asUser(who) });
      expect(await json(api)).toMatchObject({ title: "Zebra future schedule", status: "scheduled" });
    }
  });

  it("lists drafts, marked, in the writer's own dashboards and profile, and in the admin's Manage Blogs", async () => {
    for (const [path, who] of [
      ["/dashboard/myBlog", writer],
      ["/dashboard/manageBlogs", writer],
      ["/Profile", writer],
      ["/dashboard/manageAllBlogs", admin],
    ] as const) {
      const res = await getPage(path, who);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html, path).toContain("Zebra secret draft");
      expect(html, path).toMatch(/>Draft</);
      expect(html, path).toContain("Zebra future schedule");
      expect(html, path).toContain("Scheduled · ");
    }
    // Another writer's dashboards do not list them.
    for (const path of ["/dashboard/myBlog", "/dashboard/manageBlogs", "/Profile"]) {
      expect(await (await getPage(path, other)).text(), path).not.toContain("Zebra secret draft");
    }
  });

  it("refuses likes, comments and saves on a draft as if it did not exist", async () => {
    const headers = await asUser(other);
    const services = createServices(env);
    await expect(services.likes.toggle({ ...other, photoURL: null }, ids.draft)).rejects.toThrow(NotFound);
    await expect(services.comments.create({ ...other, photoURL: null }, ids.draft, { body: "Hello" })).rejects.toThrow(
      NotFound,
    );
    const save = await send("POST", "/api/save-blogs", { blogId: ids.draft }, headers);
    expect(save.status).toBe(404);
    const saved = await env.DB.prepare("select count(*) as n from saved_blogs where blog_id = ?")
      .bind(ids.draft)
      .first<{ n: number }>();
    expect(saved?.n).toBe(0);
  });
});

const postFields = (title: string, extra: Record<string, string>) => ({
  title,
  category: "Travel",
  date_time: "2026-11-21T10:30",
  tz: "+00:00",
  short_description: "A short one.",
  blog_details: "Some details.",
  ...extra,
});

describe("Save draft and Schedule on the blog forms", () => {
  it("saves a draft from Write Blogs: stored as a draft, with its own toast, public nowhere", async () => {
    const writer = await makeUser();
    const res = await postForm("/dashboard/writeBlogs", writer, postFields("My quiet draft", { status: "draft" }), {
      image: pngFile(),
    });
    expect(res.status).toBe(302);
    expect(flashOf(res)).toMatchObject({ kind: "toast", title: "Draft Saved!" });
    const row = await db().query.blogs.findFirst({ where: eq(schema.blogs.authorId, writer.id) });
    expect(row).toMatchObject({ title: "My quiet draft", status: "draft", publishAt: null });
    expect(await (await call("/api/blogs")).text()).not.toContain("My quiet draft");
  });

  it("refuses to schedule in the past beside the date, storing nothing", async () => {
    const writer = await makeUser();
    const before = (await env.IMAGES.list()).objects.length;
    const res = await postForm(
      "/dashboard/writeBlogs",
      writer,
      postFields("Too late", { status: "scheduled", date_time: "2020-01-01T10:00" }),
      { image: pngFile() },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(SCHEDULE_IN_PAST);
    expect(await db().query.blogs.findFirst({ where: eq(schema.blogs.authorId, writer.id) })).toBeUndefined();
    // The schedule is refused BEFORE the image is stored: no upload row, no R2 object.
    const uploads = await db().query.images.findMany({ where: eq(schema.images.ownerId, writer.id) });
    expect(uploads).toEqual([]);
    expect((await env.IMAGES.list()).objects.length).toBe(before);
  });

  it("refuses an edit that schedules in the past before its new image is stored", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const before = (await env.IMAGES.list()).objects.length;
    const res = await postForm(
      `/dashboard/updateBlog/${blog.id}`,
      writer,
      { status: "scheduled", date_time: "2020-01-01T10:00" },
      { image: pngFile() },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(SCHEDULE_IN_PAST);
    expect(await db().query.images.findMany({ where: eq(schema.images.ownerId, writer.id) })).toEqual([]);
    expect((await env.IMAGES.list()).objects.length).toBe(before);
  });

  it("refuses an unknown status through the API with a clear 400 and writes nothing", async () => {
    const writer = await makeUser();
    const res = await send(
      "POST",
      "/api/blogs",
      {
        ...postFields("Odd", { status: "secret" }),
        date_time: "2026-11-21T10:30:00Z",
        image: "https://example.com/cover.png",
      },
      await asUser(writer),
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: { fields: { status: expect.stringContaining("draft") } } });
    expect(await db().query.blogs.findFirst({ where: eq(schema.blogs.authorId, writer.id) })).toBeUndefined();
  });

  it("publishes a draft from Update Blog with Publish now, and keeps a status through a plain Update", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { title: "Halfway", status: "draft" });
    const form = await getPage(`/dashboard/updateBlog/${blog.id}`, writer);
    const html = await form.text();
    expect(html).toContain("Publish now");
    expect(html).toContain("Save draft");
    // "Update Blog" alone changes the text and keeps the post a draft.
    const plain = await postForm(`/dashboard/updateBlog/${blog.id}`, writer, { title: "Halfway there" });
    expect(plain.status, await plain.clone().text()).toBe(302);
    expect(await blogRow(blog.id)).toMatchObject({ title: "Halfway there", status: "draft" });
    const publish = await postForm(`/dashboard/updateBlog/${blog.id}`, writer, { status: "published" });
    expect(flashOf(publish)).toMatchObject({ title: "Blog Posted Successfully!" });
    expect(await blogRow(blog.id)).toMatchObject({ status: "published", publishAt: null });
    expect(await (await call(`/api/blogs/${blog.id}`)).json()).toMatchObject({ title: "Halfway there" });
  });
});

describe("a scheduled post appears at its time, and not before", () => {
  it("stays hidden until its time, then shows everywhere, and the minute cron publishes it and purges the cache", async () => {
    const start = Date.UTC(2030, 0, 1, 9, 0);
    stopClock(start);
    const writer = await makeUser();
    const created = await send(
      "POST",
      "/api/blogs",
      {
        ...postFields("Dawn chorus", { status: "scheduled" }),
        date_time: "2030-01-01T10:00:00Z",
        image: "https://example.com/cover.png",
      },
      await asUser(writer),
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const { insertedId } = await json<{ insertedId: string }>(created);
    expect(await blogRow(insertedId)).toMatchObject({ status: "scheduled", publishAt: Date.UTC(2030, 0, 1, 10, 0) });

    // Before its time: a visitor's lists (now cached) do not have it.
    for (const path of ["/api/latest-blogs", "/allBlogs", "/rss.xml"]) {
      const first = await call(path);
      expect(await first.text(), path).not.toContain("Dawn chorus");
      const again = await call(path);
      expect(again.headers.get("X-Cache"), path).toBe("HIT");
      await again.body?.cancel();
    }
    expect((await call(`/blogs/${insertedId}`)).status).toBe(404);

    // A minute before: the sweep publishes nothing.
    stopClock(Date.UTC(2030, 0, 1, 9, 59));
    let ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await blogRow(insertedId)).toMatchObject({ status: "scheduled" });

    // Its time: the minute cron publishes it and purges every cached list, so it is everywhere at once.
    stopClock(Date.UTC(2030, 0, 1, 10, 0, 30));
    ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await blogRow(insertedId)).toMatchObject({ status: "published" });
    for (const path of ["/api/latest-blogs", "/allBlogs", "/rss.xml", `/blogs/${insertedId}`]) {
      const res = await call(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("X-Cache"), path).toBe("MISS");
      expect(await res.text(), path).toContain("Dawn chorus");
    }
  });
});

describe("a scheduled post's page at its minute", () => {
  it("a visitor's cached 404 lasts only to the next minute, so the page shows when the lists do, cron or not", async () => {
    stopClock(Date.UTC(2031, 4, 1, 10, 0, 20));
    const writer = await makeUser();
    const blog = await makeBlog(writer, {
      title: "Minute hand",
      status: "scheduled",
      publishAt: Date.UTC(2031, 4, 1, 10, 1),
    });
    const path = `/blogs/${blog.id}/minute-hand`;
    const hidden = await call(path);
    expect(hidden.status).toBe(404);
    // Shared, but only for the 40 s left in this minute, with no stale copy after.
    expect(hidden.headers.get("Cache-Control")).toBe("public, max-age=0, s-maxage=40");
    await hidden.body?.cancel();
    const again = await call(path);
    expect(again.status).toBe(404);
    expect(again.headers.get("X-Cache")).toBe("HIT");
    await again.body?.cancel();

    // Its minute: before any cron has run, the page is the post, not the cached "not found".
    stopClock(Date.UTC(2031, 4, 1, 10, 1, 2));
    const live = await call(path);
    expect(live.status).toBe(200);
    expect(await live.text()).toContain("Minute hand");
  });

  it("the minute cron's publish purges the post's own page, its cached 404 included", async () => {
    stopClock(Date.UTC(2031, 5, 1, 10, 0, 10));
    const writer = await makeUser();
    const blog = await makeBlog(writer, {
      title: "Purged hand",
      status: "scheduled",
      publishAt: Date.UTC(2031, 5, 1, 10, 1),
    });
    const path = `/blogs/${blog.id}/purged-hand`;
    await (await call(path)).body?.cancel();
    const cached = await call(path);
    expect(cached.headers.get("X-Cache")).toBe("HIT");
    await cached.body?.cancel();
    // The cron runs on the minute (still within the copy's lifetime): its purge drops the 404.
    stopClock(Date.UTC(2031, 5, 1, 10, 0, 59));
    await db()
      .update(schema.blogs)
      .set({ publishAt: Date.UTC(2031, 5, 1, 10, 0, 30) })
      .where(eq(schema.blogs.id, blog.id));
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const res = await call(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Cache")).toBe("MISS");
  });
});
