import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { HITS_PER_CLIENT_MINUTE } from "#worker/services/analytics/ingest.ts";
import { MAX_RANGE_DAYS } from "#worker/services/analytics/model.ts";
import { analyticsWorld, CHROME, hit } from "../support/analytics";
import { stopClock } from "../support/clock";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { json } from "../support/http";
import { callWith } from "../support/mail";

/** Issue 42, fourth hardening pass: analytics ranges, the pixel, one client's hits, the OpenAPI document. */

describe("every analytics range is bounded once its defaults are filled in (finding 4)", () => {
  it("a one-sided range longer than the bound is refused by the API, the CSV and both dashboard pages", async () => {
    const writer = await makeUser();
    const post = await makeBlog(writer);
    const headers = await asUser(writer);
    for (const from of ["1900-01-01", "0000-01-01"]) {
      for (const path of [
        `/api/analytics/summary?from=${from}`,
        `/api/analytics/summary?from=${from}&post=${post.id}`,
        `/dashboard/analytics.csv?from=${from}`,
        `/dashboard/analytics?from=${from}`,
        `/dashboard/analytics/${post.id}?from=${from}`,
      ]) {
        const res = await callWith(env, path, { headers });
        expect([path, res.status]).toEqual([path, 400]);
        expect((await res.arrayBuffer()).byteLength).toBeLessThan(200_000);
      }
    }
    const api = await json<{ error: { fields: Record<string, string> } }>(
      await callWith(env, "/api/analytics/summary?from=1900-01-01", { headers }),
    );
    expect(api.error.fields.from).toBe(`Ask for at most ${MAX_RANGE_DAYS} days.`);
    // A range up to the bound still answers, one-sided too.
    const today = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.parse(`${today}T00:00:00Z`) - (MAX_RANGE_DAYS - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const ok = await json<{ series: unknown[] }>(
      await callWith(env, `/api/analytics/summary?from=${start}`, { headers }),
    );
    expect(ok.series).toHaveLength(MAX_RANGE_DAYS);
  });
});

describe("the no-JavaScript pixel counts only the site's own pages (finding 8)", () => {
  it("another site cannot count a read of a post through ?p=", async () => {
    const w = analyticsWorld();
    const writer = await makeUser();
    const post = await makeBlog(writer);
    const pixel = (query: string, referer: string) =>
      callWith(w.env, `/api/analytics/hit.gif${query}`, {
        headers: { Referer: referer, "User-Agent": CHROME, "CF-Connecting-IP": "203.0.113.80" },
      });
    expect((await pixel(`?p=/blogs/${post.id}/x`, "https://elsewhere.example/page")).status).toBe(200);
    expect((await pixel(`?p=/blogs/${post.id}/x`, "")).status).toBe(200);
    expect(w.queue.pending).toEqual([]);
    // The site's own page, named by its Referer, is counted.
    expect((await pixel("", `https://blog.test/blogs/${post.id}/x`)).status).toBe(200);
    expect(w.queue.pending.map((h) => h.post)).toEqual([post.id]);
  });
});

describe("one client counts a few hits a minute per post at most (finding 9)", () => {
  it("forty hits from one address with a rotated user agent count as at most a few pageviews and visitors", async () => {
    stopClock();
    const w = analyticsWorld();
    const writer = await makeUser();
    const post = await makeBlog(writer);
    const other = await makeBlog(writer);
    const ip = "203.0.113.81";
    for (let i = 0; i < 40; i++) {
      const ua = CHROME.replace("131.0.0.0", `131.0.${i}.0`);
      expect((await hit(w.env, { ip, ua }, `/blogs/${post.id}/x`)).status).toBe(204);
    }
    const counted = w.queue.pending.filter((h) => h.post === post.id);
    expect(counted).toHaveLength(HITS_PER_CLIENT_MINUTE);
    expect(new Set(counted.map((h) => h.visitor)).size).toBeLessThanOrEqual(HITS_PER_CLIENT_MINUTE);
    // Another post, and another client, still count.
    expect((await hit(w.env, { ip, ua: CHROME }, `/blogs/${other.id}/y`)).status).toBe(204);
    expect((await hit(w.env, { ip: "203.0.113.82", ua: CHROME }, `/blogs/${post.id}/x`)).status).toBe(204);
    expect(w.queue.pending).toHaveLength(HITS_PER_CLIENT_MINUTE + 2);
  });
});

describe("routes production does not serve stay out of the OpenAPI document (finding 10)", () => {
  it("POST /api/analytics/bench is not listed; the beacon is", async () => {
    const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(
      await callWith(env, "/api/openapi.json"),
    );
    expect(Object.keys(doc.paths)).not.toContain("/analytics/bench");
    expect(Object.keys(doc.paths)).toContain("/analytics/hit");
    expect(await (await callWith(env, "/api/docs")).text()).not.toContain("/analytics/bench");
  });
});
