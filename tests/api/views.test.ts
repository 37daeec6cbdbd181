import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { shardOf, utcDay } from "#worker/services/views.ts";
import { stopClock } from "../support/clock";
import { db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { call } from "../support/http";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let readerCount = 0;
/** A distinct reader: its own address (the agent stays a browser's). */
const reader = (ua = CHROME) => ({ ip: `203.0.113.${++readerCount % 250}`, ua, n: readerCount });

/** The beacon as the post page's sendBeacon sends it: a same-origin POST with no body. */
function beacon(blogId: string, who: { ip: string; ua: string }, headers: Record<string, string> = {}) {
  return call(`/api/blogs/${blogId}/view`, {
    method: "POST",
    headers: {
      Origin: "https://blog.test",
      "CF-Connecting-IP": who.ip,
      "User-Agent": who.ua,
      ...headers,
    },
  });
}

const flush = () => createServices(env).views.flushAll();

async function viewsOf(blogId: string): Promise<Record<string, number>> {
  const rows = await db().select().from(schema.blogViewsDaily).where(eq(schema.blogViewsDaily.blogId, blogId));
  return Object.fromEntries(rows.map((r) => [r.day, r.views]));
}
const total = async (blogId: string) => Object.values(await viewsOf(blogId)).reduce((a, b) => a + b, 0);

describe("view counting", () => {
  let writer: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    writer = await makeUser({ name: "Counted Writer" });
  });

  it("counts two readers as 2 and the same reader twice as 1, and answers private, no-store", async () => {
    const { id } = await makeBlog(writer);
    const a = reader();
    const b = reader(FIREFOX);
    const first = await beacon(id, a);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ counted: true });
    expect(first.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await (await beacon(id, a)).json()).toEqual({ counted: false });
    expect(await (await beacon(id, b)).json()).toEqual({ counted: true });
    // The same address with another browser is another reader.
    expect(await (await beacon(id, { ip: a.ip, ua: FIREFOX })).json()).toEqual({ counted: true });
    await flush();
    expect(await total(id)).toBe(3);
  });

  it("counts the same reader again the next day (UTC), once", async () => {
    const { id } = await makeBlog(writer);
    const a = reader();
    const day1 = Date.UTC(2026, 10, 20, 23, 59);
    stopClock(day1);
    await beacon(id, a);
    await beacon(id, a);
    vi.setSystemTime(day1 + 2 * 60_000);
    await beacon(id, a);
    await beacon(id, a);
    await flush();
    expect(await viewsOf(id)).toEqual({ "2026-11-20": 1, "2026-11-21": 1 });
  });

  it("does not count bots, requests without a browser, or the writer reading their own post", async () => {
    const { id } = await makeBlog(writer);
    for (const ua of [GOOGLEBOT, "curl/8.5.0", "python-requests/2.32", ""]) {
      const res = await beacon(id, reader(ua));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ counted: false });
    }
    const own = await beacon(id, reader(), { Cookie: `__Host-session=${await sessionFor(writer)}` });
    expect(await own.json()).toEqual({ counted: false });
    await flush();
    expect(await total(id)).toBe(0);
  });

  it("does not count drafts, posts scheduled for later, unknown or malformed ids (404, nothing written)", async () => {
    const draft = await makeBlog(writer, { status: "draft" });
    const later = await makeBlog(writer, { status: "scheduled", publishAt: Date.now() + 86_400_000 });
    for (const id of [draft.id, later.id, "unknownid0000000000", "NOT-AN-ID"]) {
      const res = await beacon(id, reader());
      expect(res.status).toBe(404);
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    }
    // Not even the writer's own preview counts.
    await beacon(draft.id, reader(), { Cookie: `__Host-session=${await sessionFor(writer)}` });
    await flush();
    expect(await total(draft.id)).toBe(0);
    expect(await total(later.id)).toBe(0);
  });

  it("counts a reader whose page came from the edge cache (HIT)", async () => {
    const { id } = await makeBlog(writer, { title: "Served from the cache" });
    let hit: Response | undefined;
    for (let i = 0; i < 40 && !hit; i++) {
      const res = await call(`/blogs/${id}`);
      if (res.headers.get("X-Cache") === "HIT") hit = res;
      else await new Promise((r) => setTimeout(r, 25));
      await res.text();
    }
    expect(hit?.headers.get("X-Cache")).toBe("HIT");
    // Two readers got the very same cached page; each one's beacon counts.
    await beacon(id, reader());
    await beacon(id, reader(FIREFOX));
    await flush();
    expect(await total(id)).toBe(2);
  });

  it("batches: many views reach D1 in one batch per counter, and only when it flushes", async () => {
    const one = await makeBlog(writer);
    const two = await makeBlog(writer);
    for (let i = 0; i < 15; i++) await beacon(one.id, reader());
    for (let i = 0; i < 5; i++) await beacon(two.id, reader());
    // Counted, but not written yet: no D1 write per view.
    expect(await total(one.id)).toBe(0);
    const result = await flush();
    expect(result.rows).toBe(2);
    // 20 views, at most one D1 round trip per counter they went to.
    expect(result.batches).toBe(new Set([shardOf(one.id), shardOf(two.id)]).size);
    expect(await total(one.id)).toBe(15);
    expect(await total(two.id)).toBe(5);
    expect(await flush()).toEqual({ rows: 0, batches: 0 });
  });

  it("flushes on the counter's alarm without anyone asking", async () => {
    const { id } = await makeBlog(writer);
    await beacon(id, reader());
    const stub = env.VIEWS.get(env.VIEWS.idFromName(shardOf(id)));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await viewsOf(id)).toEqual({ [utcDay(Date.now())]: 1 });
  });

  it("forgets views of a deleted post (cascade), even ones still waiting in the counter", async () => {
    const { id } = await makeBlog(writer);
    await beacon(id, reader());
    await flush();
    await beacon(id, reader());
    await db().delete(schema.blogs).where(eq(schema.blogs.id, id));
    await flush();
    expect(await total(id)).toBe(0);
  });
});
