import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "#worker/auth/cookie.ts";
import type { Summary } from "#worker/services/analytics/model.ts";
import { analyticsWorld, CHROME, GOOGLEBOT, hit, IPHONE } from "../support/analytics";
import { asUser, makeBlog, makeUser, sessionFor } from "../support/factories";
import { json } from "../support/http";
import { callWith } from "../support/mail";

async function summaryAs(workerEnv: Cloudflare.Env, user: { id: string; email: string }, query = "") {
  return callWith(workerEnv, `/api/analytics/summary${query}`, { headers: await asUser(user) });
}

const row = (list: { key: string; pageviews: number; visitors: number }[], key: string) =>
  list.find((r) => r.key === key) ?? null;

describe("analytics: counting through the queue", () => {
  it("counts exact pageviews and visitors per scope when every message is delivered twice", async () => {
    const w = analyticsWorld(2);
    const admin = await makeUser({ role: "admin" });
    const writer = await makeUser();
    const other = await makeUser();
    const post = await makeBlog(writer, { title: "Counted post" });
    const theirs = await makeBlog(other, { title: "Their post" });
    const path = `/blogs/${post.id}/counted-post`;
    const a = { ip: "203.0.113.10", ua: CHROME, country: "US" };
    const b = { ip: "2001:db8::b", ua: IPHONE, country: "FR" };
    const c = { ip: "203.0.113.12", ua: CHROME };

    for (const [who, page, ref] of [
      [a, path, "https://www.google.com/"],
      [b, `${path}?ref=newsletter`, ""],
      [a, path, "https://www.google.com/"],
      [b, `/blogs/${theirs.id}/their-post`, "https://mastodon.social/@someone/1"],
      [c, "/", "https://example.org/links"],
    ] as const) {
      expect((await hit(w.env, who, page, ref)).status).toBe(204);
    }
    expect(w.queue.pending).toHaveLength(5);
    // Batches of two, each delivered a second time: the same visitor meets itself across batches too.
    await w.queue.drain(w.env, { twice: true });

    const site = await json<Summary>(await summaryAs(w.env, admin));
    expect(site.scope).toBe("site");
    expect([site.pageviews, site.visitors]).toEqual([5, 3]);
    expect(site.topPosts.map((p) => [p.title, p.pageviews, p.visitors])).toEqual([
      ["Counted post", 3, 2],
      ["Their post", 1, 1],
    ]);
    expect(row(site.sources, "example.org")).toMatchObject({ pageviews: 1, visitors: 1 });
    expect(row(site.countries, "unknown")).toMatchObject({ pageviews: 1 });

    const mine = await json<Summary>(await summaryAs(w.env, writer));
    expect(mine.scope).toBe("writer");
    expect([mine.pageviews, mine.visitors]).toEqual([3, 2]);
    expect(mine.topPosts.map((p) => p.id)).toEqual([post.id]);

    const one = await json<Summary>(await summaryAs(w.env, writer, `?post=${post.id}`));
    expect([one.pageviews, one.visitors]).toEqual([3, 2]);
    expect(row(one.sources, "search")).toEqual({ key: "search", pageviews: 2, visitors: 1 });
    expect(row(one.sources, "newsletter")).toEqual({ key: "newsletter", pageviews: 1, visitors: 1 });
    expect(row(one.countries, "US")).toEqual({ key: "US", pageviews: 2, visitors: 1 });
    expect(row(one.countries, "FR")).toEqual({ key: "FR", pageviews: 1, visitors: 1 });
    expect(row(one.devices, "mobile")).toEqual({ key: "mobile", pageviews: 1, visitors: 1 });
    expect(row(one.devices, "desktop")).toEqual({ key: "desktop", pageviews: 2, visitors: 1 });
    expect(one.series.at(-1)).toMatchObject({ pageviews: 3, visitors: 2 });

    const fedi = await json<Summary>(await summaryAs(w.env, other, `?post=${theirs.id}`));
    expect(fedi.sources).toEqual([{ key: "fediverse", pageviews: 1, visitors: 1 }]);

    // The live counter saw the same five reads, once each.
    const page = await callWith(w.env, "/dashboard/analytics", { headers: await asUser(admin) });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/data-testid="analytics-recent"[^]*?<strong[^>]*>5<\/strong>/);
  });

  it("does not count bots, Do Not Track, Global Privacy Control, private pages or writers reading their own posts", async () => {
    const w = analyticsWorld();
    const writer = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const post = await makeBlog(writer);
    const path = `/blogs/${post.id}/x`;
    const reader = { ip: "203.0.113.20", ua: CHROME };
    const skipped = [
      hit(w.env, { ip: "203.0.113.21", ua: GOOGLEBOT }, path),
      hit(w.env, { ...reader, headers: { DNT: "1" } }, path),
      hit(w.env, { ...reader, headers: { "Sec-GPC": "1" } }, path),
      hit(w.env, reader, "/dashboard/stats"),
      hit(w.env, { ...reader, headers: await asUser(writer) }, path),
      hit(w.env, { ...reader, headers: { Cookie: `${SESSION_COOKIE}=${await sessionFor(writer)}` } }, path),
    ];
    for (const res of await Promise.all(skipped)) expect(res.status).toBe(204);
    expect(w.queue.pending).toHaveLength(0);
    // An admin reading someone else's post is a reader like any other.
    await hit(w.env, { ...reader, headers: await asUser(admin) }, path);
    expect(w.queue.pending).toHaveLength(1);
  });

  it("answers the beacon and its pixel without a cookie, and refuses a malformed hit with a 400", async () => {
    const w = analyticsWorld();
    const writer = await makeUser();
    const post = await makeBlog(writer);
    // A signed-in reader's POST would get the D1 bookmark cookie anywhere else: not here.
    const signedIn = { Cookie: `${SESSION_COOKIE}=${await sessionFor(await makeUser())}` };
    const res = await hit(w.env, { ip: "203.0.113.30", ua: CHROME, headers: signedIn }, `/blogs/${post.id}/x`);
    expect(res.status).toBe(204);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");

    const pixel = await callWith(w.env, "/api/analytics/hit.gif", {
      headers: { Referer: `https://blog.test/blogs/${post.id}/x?ref=newsletter`, "User-Agent": CHROME, ...signedIn },
    });
    expect(pixel.status).toBe(200);
    expect(pixel.headers.get("Content-Type")).toBe("image/gif");
    expect(pixel.headers.get("Set-Cookie")).toBeNull();
    expect(pixel.headers.get("Cache-Control")).toBe("private, no-store");
    expect(w.queue.pending.map((h) => [h.post, h.source])).toEqual([
      [post.id, "direct"],
      [post.id, "newsletter"],
    ]);

    const bad = await callWith(w.env, "/api/analytics/hit", {
      method: "POST",
      headers: { Origin: "https://blog.test", "User-Agent": CHROME },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    const noPath = await hit(w.env, { ip: "203.0.113.31", ua: CHROME }, "");
    expect(noPath.status).toBe(400);
    expect((await json<{ error: { fields: Record<string, string> } }>(noPath)).error.fields.path).toBeTruthy();
  });
});

describe("GET /api/analytics/summary: scoped like the page", () => {
  it("lets a writer see their own posts only, an admin any; anonymous is 401, bad ranges 400", async () => {
    const writer = await makeUser();
    const other = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const theirs = await makeBlog(other);
    const mine = await makeBlog(writer);
    expect((await summaryAs(env, writer, `?post=${theirs.id}`)).status).toBe(403);
    expect((await summaryAs(env, writer, `?post=${mine.id}`)).status).toBe(200);
    expect((await summaryAs(env, admin, `?post=${theirs.id}`)).status).toBe(200);
    expect((await summaryAs(env, writer, "?post=zzzzzzzzzzzzzzzzzzzz")).status).toBe(404);
    expect((await callWith(env, "/api/analytics/summary")).status).toBe(401);
    expect((await summaryAs(env, writer, "?from=2026-02-30")).status).toBe(400);
    expect((await summaryAs(env, writer, "?from=2026-05-02&to=2026-05-01")).status).toBe(400);
    expect((await summaryAs(env, writer, "?from=2020-01-01&to=2026-01-01")).status).toBe(400);
    const week = await json<Summary>(await summaryAs(env, writer, "?from=2026-05-01&to=2026-05-07"));
    expect(week.series.map((d) => d.date)).toEqual([
      "2026-05-01",
      "2026-05-02",
      "2026-05-03",
      "2026-05-04",
      "2026-05-05",
      "2026-05-06",
      "2026-05-07",
    ]);
    expect(week.previous).toMatchObject({ from: "2026-04-24", to: "2026-04-30", pageviews: 0 });

    // The pages and the CSV follow the same rule.
    const page = await callWith(env, `/dashboard/analytics/${theirs.id}`, { headers: await asUser(writer) });
    expect(page.status).toBe(403);
    const csv = await callWith(env, `/dashboard/analytics.csv?post=${mine.id}`, { headers: await asUser(writer) });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect((await csv.text()).split("\r\n")[0]).toBe("section,key,label,pageviews,visitors");
    const refused = await callWith(env, `/dashboard/analytics.csv?post=${theirs.id}`, {
      headers: await asUser(writer),
    });
    expect(refused.status).toBe(403);
  });
});
