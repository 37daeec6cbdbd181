import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#worker/index.ts";
import { call, json } from "../support/http";

describe("GET /api/health", () => {
  it("answers ok after a real D1 query", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("answers 503 with a JSON error when D1 fails", async () => {
    // D1 is Cloudflare's binding, not ours: a binding that fails the way an outage does.
    const failing = new Proxy(env.DB, {
      get(target, prop) {
        // The app reads through D1 sessions (read replication): a session of a failing D1 fails too.
        if (prop === "withSession") return () => failing;
        if (prop === "prepare" || prop === "batch" || prop === "exec")
          return () => {
            throw new Error("D1_ERROR: Network connection lost.");
          };
        return Reflect.get(target, prop);
      },
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request("https://blog.test/api/health") as Request<unknown, IncomingRequestCfProperties>,
      { ...env, DB: failing },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await json<{ error: { code: string; message: string } }>(res);
    expect(body.error.code).toBe("database-unavailable");
    expect(body.error.message).toMatch(/database/i);
  });

  it("answers unknown /api paths with a JSON 404", async () => {
    const res = await call("/api/no-such-thing");
    expect(res.status).toBe(404);
    expect((await json<{ error: { code: string } }>(res)).error.code).toBe("not-found");
  });
});
