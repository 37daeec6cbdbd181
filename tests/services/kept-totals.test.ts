import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { clearContent, makeBlog, makeUser } from "../support/factories";

/**
 * List totals and Stats totals are kept by triggers (migration 0016) instead of counted over
 * every post. They must match the one visible-blogs rule exactly through every write: create, publish,
 * unpublish, schedule (and the moment a scheduled post's time comes, before and after the publisher
 * flips it), change of category, delete, and an account's deletion. Deep pages read from the oldest end
 * must be the same pages as from the newest end.
 */
const services = () => createServices(env);
const HOUR = 60 * 60 * 1000;
const later = () => new Date(Date.now() + HOUR).toISOString();

const actor = (u: { id: string; name: string; email: string; role?: string }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role === "admin" ? "admin" : "user",
  photoURL: null,
});

/** The totals as counted the slow way, straight from the rows with the visible rule written out. */
async function live(where = "1") {
  const now = Date.now();
  const visible = `(status = 'published' or (status = 'scheduled' and publish_at <= ${now}))`;
  const row = await env.DB.prepare(
    `select (select count(*) from blogs where ${visible} and ${where}) as visible, (select count(*) from blogs where ${where}) as any`,
  ).first<{ visible: number; any: number }>();
  return row!;
}

/** Every total the pages show, through the services (kept totals). */
async function shown(writer: Actor, admin: Actor) {
  const s = services();
  return {
    api: (await s.blogs.list({})).total,
    allBlogs: (await s.reading.listing(null, {})).results.total,
    category: (await s.reading.listing(null, { category: "Travel" })).results.total,
    byEmail: (await s.blogs.byAuthorEmail({ email: writer.email }, writer)).total,
    writerPage: (await s.writers.page(writer.id, {})).blogs.total,
    published: await s.blogs.ownPublishedCount(writer),
    own: (await s.blogs.ownPage(writer, {})).total,
    profile: (await s.profiles.overview(writer)).blogs.total,
    admin: (await s.blogs.adminPage(admin, {})).total,
    sitemapFiles: await s.feeds.sitemapFiles(),
  };
}

async function expected(writer: Actor) {
  const all = await live();
  const mine = await live(`author_id = '${writer.id}'`);
  const travel = await live(`category = 'Travel'`);
  return {
    api: all.visible,
    allBlogs: all.visible,
    category: travel.visible,
    byEmail: mine.visible,
    writerPage: mine.visible,
    published: mine.visible,
    own: mine.any,
    profile: mine.any,
    admin: all.any,
    sitemapFiles: Math.ceil(all.visible / 1000),
  };
}

describe("totals kept by triggers", () => {
  let writer: Actor;
  let other: Actor;
  let admin: Actor;

  beforeEach(async () => {
    await clearContent();
    writer = actor(await makeUser({ name: "Kept Writer" }));
    other = actor(await makeUser({ name: "Other Writer" }));
    admin = actor(await makeUser({ name: "Kept Admin", role: "admin" }));
  });

  it("match the visible rule through create, publish, unpublish, schedule, due, publisher, category and delete", async () => {
    const s = services();
    const check = async (step: string) => expect(await shown(writer, admin), step).toEqual(await expected(writer));
    await check("empty");
    const post = (title: string, extra: Record<string, unknown> = {}) =>
      s.blogs.create(writer, {
        title,
        short_description: "Short.",
        blog_details: "Body.",
        category: "Travel",
        date_time: new Date().toISOString(),
        image: "/images/test-image-0001.png",
        ...extra,
      });
    const a = (await post("Published")).insertedId;
    const draft = (await post("Draft", { status: "draft" })).insertedId;
    const scheduled = (await post("Scheduled", { status: "scheduled", date_time: later() })).insertedId;
    await makeBlog(other, { title: "Someone else's", category: "Health" });
    await check("created");
    expect((await shown(writer, admin)).api).toBe(2);

    await s.blogs.update(writer, draft, { status: "published" });
    await check("draft published");
    await s.blogs.update(writer, a, { status: "draft" });
    await check("unpublished");
    await s.blogs.update(writer, draft, { category: "Health" });
    await check("category changed");

    // Time passes: the scheduled post's moment comes. No trigger fires, yet it counts at once…
    await env.DB.prepare("update blogs set publish_at = ? where id = ?")
      .bind(Date.now() - 1000, scheduled)
      .run();
    const due = await shown(writer, admin);
    expect(due.api).toBe(3);
    await check("scheduled post due, not yet flipped");
    // …and still counts once (not twice) after the publisher flips it.
    expect(await s.blogs.publishDue()).toBe(1);
    await check("publisher flipped it");
    expect((await shown(writer, admin)).api).toBe(3);

    await s.blogs.remove(writer, draft);
    await check("deleted");
    await s.users.remove(admin, other.id);
    await check("account deleted with its posts");
    expect((await shown(writer, admin)).api).toBe(1);
  });

  it("a deep page read from the oldest end is the page read from the newest end", async () => {
    for (let i = 0; i < 11; i++) {
      await makeBlog(writer, {
        title: `Deep ${i}`,
        dateTime: new Date(Date.UTC(2024, 0, 1 + (i % 4))).toISOString(),
        status: i === 5 ? "draft" : "published",
      });
    }
    const s = services();
    const walked = [];
    for (let page = 1; page <= 4; page++) walked.push(...(await s.blogs.list({ page, limit: 3 })).items);
    // The cursor walk never uses OFFSET: the reference order.
    const reference = [];
    let cursor: string | null | undefined;
    do {
      const got = await s.blogs.list(cursor ? { cursor, limit: 3 } : { limit: 3 });
      reference.push(...got.items);
      cursor = got.next;
    } while (cursor);
    expect(walked.map((b) => b._id)).toEqual(reference.map((b) => b._id));
    expect(walked).toHaveLength(10);
    const last = await s.blogs.list({ page: 4, limit: 3 });
    expect(last.items).toHaveLength(1);
    expect((await s.blogs.list({ page: 5, limit: 3 })).items).toHaveLength(0);
    // The writer's own table (drafts included): the last page holds the oldest two.
    const own = await s.blogs.ownPage(writer, { page: 4, limit: 3 });
    expect(own.items.map((b) => b.title).sort()).toEqual(
      (await s.blogs.ownPage(writer, { page: 1, limit: 11 })).items
        .slice(9)
        .map((b) => b.title)
        .sort(),
    );
  });

  it("keep a writer's Stats totals and chart through comments, saves, likes, views and deletes", async () => {
    const s = services();
    const reader = actor(await makeUser({ name: "Kept Reader" }));
    const one = await makeBlog(writer, { title: "Stats one" });
    const two = await makeBlog(writer, { title: "Stats two" });
    await makeBlog(other, { title: "Not theirs" });
    await s.comments.create(reader, one.id, { body: "Nice" });
    await s.comments.create(reader, two.id, { body: "Also nice" });
    await s.savedBlogs.save(reader, { blogId: one.id });
    await s.likes.toggle(reader, one.id);
    const today = new Date().toISOString().slice(0, 10);
    await env.DB.batch([
      env.DB.prepare("insert into blog_views_daily (blog_id, day, views) values (?, ?, 3)").bind(one.id, today),
      env.DB.prepare("insert into blog_views_daily (blog_id, day, views) values (?, ?, 4)").bind(two.id, today),
    ]);
    await env.DB.prepare(
      "insert into blog_views_daily (blog_id, day, views) values (?, ?, 2) on conflict (blog_id, day) do update set views = views + excluded.views",
    )
      .bind(one.id, today)
      .run();
    let stats = await s.views.stats(writer);
    expect(stats.totals).toEqual({ views: 9, views30: 9, likes: 1, comments: 2, saves: 1 });
    expect(stats.posts.total).toBe(2);
    expect(stats.daily.at(-1)).toEqual({ day: today, views: 9 });

    await s.blogs.remove(writer, one.id);
    stats = await s.views.stats(writer);
    expect(stats.totals).toEqual({ views: 4, views30: 4, likes: 0, comments: 1, saves: 0 });
    expect(stats.posts.total).toBe(1);
    expect(stats.daily.at(-1)).toEqual({ day: today, views: 4 });
    const site = await s.views.stats(admin);
    expect(site.posts.total).toBe(2);
    expect(site.totals).toEqual({ views: 4, views30: 4, likes: 0, comments: 1, saves: 0 });
  });
});
