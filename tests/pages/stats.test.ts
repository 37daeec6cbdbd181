import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { utcDay } from "#worker/services/views.ts";
import { db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { call } from "../support/http";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function get(path: string, who: { id: string; email: string } | null) {
  const headers: Record<string, string> = { Accept: "text/html" };
  if (who) headers.Cookie = `__Host-session=${await sessionFor(who)}`;
  return call(path, { headers, redirect: "manual" });
}

/** A factory user as the services receive them. */
const actor = (u: { id: string; name: string; email: string; role: "user" | "admin" }): Actor => ({
  ...u,
  photoURL: null,
});

const view = (blogId: string, ip: string) =>
  call(`/api/blogs/${blogId}/view`, {
    method: "POST",
    headers: { Origin: "https://blog.test", "CF-Connecting-IP": ip, "User-Agent": CHROME },
  });

describe("the Stats page", () => {
  let writer: Awaited<ReturnType<typeof makeUser>>;
  let other: Awaited<ReturnType<typeof makeUser>>;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let mine: string;
  let theirs: string;

  beforeAll(async () => {
    writer = await makeUser({ name: "Stats Writer" });
    other = await makeUser({ name: "Other Writer" });
    admin = await makeUser({ name: "Stats Admin", email: "admin@example.com", role: "admin" });
    mine = (await makeBlog(writer, { title: "Mine to measure" })).id;
    theirs = (await makeBlog(other, { title: "Someone else's post" })).id;
    await makeBlog(writer, { title: "My unfinished draft", status: "draft" });
  });

  it("sends visitors to sign in", async () => {
    const res = await get("/dashboard/stats", null);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login\?redirectTo=%2Fdashboard%2Fstats/);
  });

  it("shows a writer their own posts only, with views not yet flushed, privately", async () => {
    await view(mine, "198.51.100.1");
    await view(mine, "198.51.100.2");
    await view(theirs, "198.51.100.3");
    const res = await get("/dashboard/stats", writer);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain("Mine to measure");
    expect(html).toContain("My unfinished draft");
    expect(html).not.toContain("Someone else&#x27;s post");
    expect(html).not.toContain("Someone else's post");
    // The loader flushed the counters: the two views are in the chart's summary and the table.
    expect(html).toMatch(/<desc[^>]*>2 views from/);
    expect(html).toContain('href="/dashboard/stats"');
    const stats = await createServices(env).views.stats(actor(writer));
    expect(stats.posts.items.find((p) => p._id === mine)).toMatchObject({ views: 2, views30: 2 });
    expect(stats.daily).toHaveLength(30);
    expect(stats.daily.at(-1)).toEqual({ day: utcDay(Date.now()), views: 2 });
  });

  it("shows an admin every post of the site", async () => {
    const html = await (await get("/dashboard/stats", admin)).text();
    expect(html).toContain("Mine to measure");
    expect(html).toMatch(/Someone else(&#x27;|')s post/);
    expect(html).toContain("Site views per day");
    const stats = await createServices(env).views.stats(actor(admin));
    expect(stats.scope).toBe("site");
    expect(stats.totals.views).toBeGreaterThanOrEqual(3);
  });

  it("counts likes, comments and saves per post", async () => {
    const reader = await makeUser({ name: "A Reader" });
    await db()
      .insert(schema.comments)
      .values({ id: "statscomment0001", blogId: mine, userId: reader.id, body: "Nice" });
    await db()
      .insert(schema.savedBlogs)
      .values({ id: "statssave00000001", userId: reader.id, blogId: mine, email: reader.email });
    await createServices(env).likes.toggle(actor(reader), mine);
    const stats = await createServices(env).views.stats(actor(writer));
    expect(stats.posts.items.find((p) => p._id === mine)).toMatchObject({ likes: 1, comments: 1, saves: 1 });
  });
});
