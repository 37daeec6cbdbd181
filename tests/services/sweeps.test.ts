import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#worker/index.ts";
import { createServices } from "#worker/services/index.ts";
import { makeUser } from "../support/factories";

const count = async (userId: string) =>
  (await env.DB.prepare("select count(*) as n from sessions where user_id = ?").bind(userId).first<{ n: number }>())?.n;

describe("scheduled sweeps", () => {
  it("removes expired sessions and keeps live ones", async () => {
    const user = await makeUser();
    const services = createServices(env);
    const live = await services.sessions.start(user);
    await services.sessions.start(user);
    await env.DB.prepare("update sessions set expires_at = ? where user_id = ? and expires_at <> ?")
      .bind(Date.now() - 1000, user.id, live.expiresAt)
      .run();
    expect(await count(user.id)).toBe(2);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "17 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await count(user.id)).toBe(1);
    expect((await services.sessions.resolve(live.token))?.actor.id).toBe(user.id);
  });
});
