import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { toArticle } from "#worker/services/federation/publishing.ts";
import { urls } from "#worker/services/federation/vocab.ts";
import { createServices } from "#worker/services/index.ts";
import { addDays, utcDay, type AnalyticsHit } from "#worker/services/analytics/model.ts";
import { analyticsWorld, CHROME, hit, IPHONE } from "../support/analytics";
import { db, makeBlog, makeUser } from "../support/factories";

/** Every row of every table, as text: what a copy of the database would give away. */
async function wholeDatabase(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  let out = "";
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    out += JSON.stringify(rows.results);
  }
  return out;
}

/** A test user as the services receive the signed-in person. */
const actor = (u: Awaited<ReturnType<typeof makeUser>>) => ({ ...u, photoURL: null });

const folded = (h: Partial<AnalyticsHit> & { id: string; day: string }): AnalyticsHit => ({
  kind: "analytics-hit",
  minute: Math.floor(Date.parse(`${h.day}T12:00:00Z`) / 60_000),
  post: null,
  source: "direct",
  refHost: null,
  country: "DE",
  device: "desktop",
  browser: "Firefox",
  visitor: "0".repeat(32),
  ...h,
});

describe("analytics storage", () => {
  it("keeps no address and no user agent anywhere in D1, only counts and the day's hashes", async () => {
    const w = analyticsWorld(10);
    const writer = await makeUser();
    const post = await makeBlog(writer);
    const readers = [
      { ip: "198.51.100.77", ua: CHROME, country: "NL" },
      { ip: "2001:db8:77::1", ua: IPHONE, country: "JP" },
    ];
    for (const r of readers) await hit(w.env, r, `/blogs/${post.id}/x`, "https://news.ycombinator.com/item?id=1");
    await w.queue.drain(w.env);
    const all = await wholeDatabase();
    expect(all).toContain("NL");
    for (const r of readers) {
      expect(all).not.toContain(r.ip);
      expect(all).not.toContain(r.ua);
    }
    // The address's textual forms, and no table has a column named like one.
    expect(all).not.toMatch(/198\.51\.100\.77|2001:db8:77/i);
    const columns = await env.DB.prepare(
      "SELECT p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name LIKE 'analytics%'",
    ).all<{ name: string }>();
    expect(columns.results.map((c) => c.name).filter((n) => /ip|addr|agent/i.test(n))).toEqual([]);
    // Raw hits are not kept: the stage is empty between batches.
    expect((await env.DB.prepare("SELECT count(*) AS n FROM analytics_inbox").first<{ n: number }>())?.n).toBe(0);
  });

  it("prunes days past ANALYTICS_RETENTION_DAYS, and the hashes, hit ids, minute buckets and salts that only served counting", async () => {
    const now = Date.parse("2026-06-15T10:00:00Z");
    const services = createServices({ ...env, ANALYTICS_RETENTION_DAYS: "30" });
    const today = utcDay(now);
    await services.analytics.fold([
      folded({ id: "oldhit00001", day: addDays(today, -31), visitor: "a".repeat(32) }),
      folded({ id: "edgehit0001", day: addDays(today, -30), visitor: "b".repeat(32) }),
      folded({ id: "todayhit001", day: today, visitor: "c".repeat(32), minute: Math.floor(now / 60_000) }),
    ]);
    await db()
      .insert(schema.analyticsSalts)
      .values([
        { day: addDays(today, -1), salt: "old" },
        { day: today, salt: "new" },
      ]);
    await services.analytics.prune(now);
    // (Other tests of this file count on the real today, after this test's "now": those rows are left out.)
    const upToToday = (list: { day: string }[]) => list.map((d) => d.day).filter((d) => d <= today);
    const days = await db().selectDistinct({ day: schema.analyticsDaily.day }).from(schema.analyticsDaily);
    expect(upToToday(days).sort()).toEqual([addDays(today, -30), today]);
    const seen = await db().select({ id: schema.analyticsSeen.hitId }).from(schema.analyticsSeen);
    expect(seen.map((s) => s.id).filter((id) => /hit/.test(id))).toEqual(["todayhit001"]);
    const visitors = await db().selectDistinct({ day: schema.analyticsVisitors.day }).from(schema.analyticsVisitors);
    expect(upToToday(visitors)).toEqual([today]);
    const salts = await db().select({ day: schema.analyticsSalts.day }).from(schema.analyticsSalts);
    expect(upToToday(salts)).toEqual([today]);
    // An hour later the minute bucket is gone too.
    await services.analytics.prune(now + 61 * 60_000);
    const buckets = await db().select().from(schema.analyticsRecent);
    expect(buckets.filter((b) => b.minute <= Math.floor(now / 60_000))).toEqual([]);
  });

  it("deletes a deleted account's posts' analytics, and the site's other numbers stay", async () => {
    const w = analyticsWorld(10);
    const admin = await makeUser({ role: "admin" });
    const leaving = await makeUser();
    const staying = await makeUser();
    const gone = await makeBlog(leaving);
    const kept = await makeBlog(staying);
    await hit(w.env, { ip: "203.0.113.50", ua: CHROME }, `/blogs/${gone.id}/x`);
    await hit(w.env, { ip: "203.0.113.51", ua: CHROME }, `/blogs/${kept.id}/x`);
    await w.queue.drain(w.env);
    const services = createServices(env);
    await services.users.remove(actor(admin), leaving.id);
    const rows = await db().select().from(schema.analyticsDaily);
    expect(
      rows.filter((r) => r.scope === `w:${leaving.id}` || r.scope === `p:${gone.id}` || r.key === gone.id),
    ).toEqual([]);
    expect(rows.some((r) => r.scope === `p:${kept.id}`)).toBe(true);
    expect(rows.some((r) => r.scope === "site" && r.dim === "post" && r.key === kept.id)).toBe(true);
  });

  it("credits a subscriber to the post the form was reached from, and counts the newsletter's reads per sent post", async () => {
    const w = analyticsWorld(10);
    const admin = await makeUser({ role: "admin" });
    const writer = await makeUser();
    const post = await makeBlog(writer, { title: "Sent post" });
    await db().insert(schema.newsletterSends).values({ blogId: post.id, title: post.title });
    const services = createServices(env);
    await services.newsletter.subscribe("gained@example.com", "203.0.113.60", "https://blog.test", post.id);
    await services.newsletter.subscribe("nobody@example.com", "203.0.113.61", "https://blog.test", "notapost0000");
    await db()
      .update(schema.newsletterSubscriptions)
      .set({ state: "confirmed" })
      .where(eq(schema.newsletterSubscriptions.email, "gained@example.com"));
    await hit(w.env, { ip: "203.0.113.62", ua: CHROME }, `/blogs/${post.id}/sent-post?ref=newsletter`);
    await hit(w.env, { ip: "203.0.113.63", ua: CHROME }, `/blogs/${post.id}/sent-post`);
    await w.queue.drain(w.env);
    for (const who of [actor(admin), actor(writer)]) {
      const report = await services.analytics.newsletter(who);
      expect(report.sent).toEqual([expect.objectContaining({ id: post.id, title: "Sent post", reads: 1, gained: 1 })]);
      expect(report.gained).toEqual([{ id: post.id, title: "Sent post", gained: 1 }]);
    }
    expect((await services.analytics.newsletter(actor(await makeUser()))).sent).toEqual([]);
  });

  it("marks the links the site sends out: ?ref=fediverse on a federated post", async () => {
    const writer = await makeUser();
    const post = await makeBlog(writer, { title: "Federated" });
    const [row] = await db().select().from(schema.blogs).where(eq(schema.blogs.id, post.id));
    const article = toArticle(row!, urls("https://blog.test"));
    expect(article.url).toBe(`https://blog.test/blogs/${post.id}/federated?ref=fediverse`);
  });
});
