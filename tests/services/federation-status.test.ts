import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";

/** Issue 47: the admin's Fediverse page shows the site's handle, its followers and each writer's, and deliveries. */
describe("federation status", () => {
  it("counts the site's and each writer's followers, the last day's deliveries and the servers failing", async () => {
    const adminRow = await makeUser({ role: "admin" });
    const admin: Actor = {
      id: adminRow.id,
      name: adminRow.name,
      email: adminRow.email,
      role: "admin",
      photoURL: null,
      emailVerified: true,
    };
    const writer = await makeUser({ name: "Followed Writer" });
    const services = createServices(env, undefined, "https://blog.test");
    const site = await services.federation.actors.site();
    const mine = (await services.federation.actors.writer(writer.id))!;
    const tag = Date.now().toString(36);
    const remotes = [1, 2, 3].map((n) => {
      const id = `https://far${n}-${tag}.example/users/f`;
      return { id, host: new URL(id).host, inbox: `${id}/inbox`, keyId: `${id}#k`, publicKeyPem: "-", fetchedAt: 1 };
    });
    await db().insert(schema.apRemoteActors).values(remotes);
    const follow = (localId: string, r: (typeof remotes)[number]) => ({
      localId,
      remoteId: r.id,
      inbox: r.inbox,
      followId: `${r.id}/follow/${localId}`,
    });
    await db()
      .insert(schema.apFollowers)
      .values([follow(site.id, remotes[0]!), follow(mine.id, remotes[1]!), follow(mine.id, remotes[2]!)]);
    const now = Date.now();
    await db()
      .insert(schema.apDeliveries)
      .values([
        { key: `a1-${tag} x`, deliveredAt: now - 60_000 },
        { key: `a2-${tag} x`, deliveredAt: now - 2 * 24 * 60 * 60 * 1000 },
      ]);
    await db()
      .insert(schema.apPeers)
      .values({ host: `down-${tag}.example`, failingSince: now - 3_600_000, lastFailureAt: now - 60_000 });

    const status = await services.federation.status(admin);
    expect(status.siteHandle).toBe(`@${site.handle}@blog.test`);
    expect(status.siteFollowers).toBeGreaterThanOrEqual(1);
    expect(status.totalFollowers).toBeGreaterThanOrEqual(3);
    expect(status.writers).toContainEqual({
      userId: writer.id,
      name: "Followed Writer",
      handle: `@${mine.handle}@blog.test`,
      followers: 2,
    });
    expect(status.deliveries.recent).toBeGreaterThanOrEqual(1);
    expect(Date.parse(status.deliveries.lastAt!)).toBeGreaterThanOrEqual(now - 60_000);
    expect(status.deliveries.failing).toContainEqual({
      host: `down-${tag}.example`,
      since: new Date(now - 3_600_000).toISOString(),
      lastFailureAt: new Date(now - 60_000).toISOString(),
    });
    // Only admins see it.
    await expect(services.federation.status({ ...admin, role: "user" })).rejects.toThrow();
  });
});
