import { describe, expect, it } from "vitest";
import type { Summary } from "#worker/services/analytics/model.ts";
import { analyticsWorld } from "../support/analytics";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { json } from "../support/http";
import { callWith } from "../support/mail";

/** The benchmark's producer, as scripts/bench-analytics.mjs calls it. */
const bench = (workerEnv: Cloudflare.Env, body: unknown) =>
  callWith(workerEnv, "/api/analytics/bench", {
    method: "POST",
    headers: { Origin: "https://blog.test", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("POST /api/analytics/bench (npm run bench:analytics's producer)", () => {
  it("is not there unless ANALYTICS_BENCH_HOOKS is true, and queues nothing", async () => {
    const w = analyticsWorld();
    const res = await bench(w.env, { count: 10, posts: ["p1"] });
    expect(res.status).toBe(404);
    expect(w.queue.pending).toEqual([]);
    const off = await bench({ ...w.env, ANALYTICS_BENCH_HOOKS: "false" } as Cloudflare.Env, {
      count: 10,
      posts: ["p1"],
    });
    expect(off.status).toBe(404);
    expect(w.queue.pending).toEqual([]);
  });

  it("with the flag, queues the hits through the queue, and the consumer folds them to exact totals", async () => {
    const w = analyticsWorld(100);
    const on = { ...w.env, ANALYTICS_BENCH_HOOKS: "true" } as Cloudflare.Env;
    const admin = await makeUser({ role: "admin" });
    const writer = await makeUser();
    const post = await makeBlog(writer, { status: "published" });
    const before = await json<Summary>(
      await callWith(on, `/api/analytics/summary?from=${today()}&to=${today()}`, { headers: await asUser(admin) }),
    );
    const res = await bench(on, { count: 250, offset: 0, posts: [post.id] });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ queued: 250 });
    expect(w.queue.pending).toHaveLength(250);
    // Each batch delivered twice: still counted once.
    await w.queue.drain(on, { twice: true });
    const after = await json<Summary>(
      await callWith(on, `/api/analytics/summary?from=${today()}&to=${today()}`, { headers: await asUser(admin) }),
    );
    expect(after.pageviews - before.pageviews).toBe(250);
    const mine = await json<Summary>(
      await callWith(on, `/api/analytics/summary?from=${today()}&to=${today()}&post=${post.id}`, {
        headers: await asUser(writer),
      }),
    );
    // A tenth of the hits are of the home page: 225 of 250 read the post.
    expect(mine.pageviews).toBe(225);
  });

  it("refuses a request over 10,000 hits or without posts, with the field's words", async () => {
    const on = { ...analyticsWorld().env, ANALYTICS_BENCH_HOOKS: "true" } as Cloudflare.Env;
    for (const body of [{ count: 10_001, posts: ["p"] }, { count: 5, posts: [] }, null]) {
      const res = await bench(on, body);
      expect(res.status).toBe(400);
    }
  });
});

const today = () => new Date().toISOString().slice(0, 10);
