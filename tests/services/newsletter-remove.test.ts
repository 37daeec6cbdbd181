import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { Forbidden, NotFound } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeUser } from "../support/factories";
import { newsletterWorld, tag } from "../support/kernel";

let n = 0;
const actorOf = (u: Awaited<ReturnType<typeof makeUser>>, extra: Partial<Actor> = {}): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  photoURL: null,
  ...extra,
});

const post = () => ({
  title: `Removal ${tag()}`,
  short_description: "What happened this week.",
  blog_details: "The whole story.",
  category: "Technology",
  date_time: "2026-11-20T10:00:00.000Z",
  image: "/images/cover-0001.png",
});

async function confirmed(email: string): Promise<string> {
  const id = newId();
  await db().insert(schema.newsletterSubscriptions).values({ id, email, state: "confirmed", confirmedAt: Date.now() });
  return id;
}

describe("newsletter: an admin removes a subscriber", () => {
  it("the row goes, and no mail ever reaches the address after: neither waiting messages nor later posts", async () => {
    const w = newsletterWorld();
    const t = tag();
    const [goneEmail, keptEmail] = [`removed-${t}@example.com`, `kept-${t}@example.com`];
    const goneId = await confirmed(goneEmail);
    await confirmed(keptEmail);
    const admin = actorOf(await makeUser({ role: "admin" }));
    const author = actorOf(await makeUser());

    // Email Service is down: both messages of the first post wait in the outbox.
    await w.services().blogs.create(author, post());
    w.box.fail();
    await w.queue.drain(w.env);
    w.box.recover();
    const waiting = await db()
      .select({ to: schema.mailOutbox.toAddress })
      .from(schema.mailOutbox)
      .where(inArray(schema.mailOutbox.toAddress, [goneEmail, keptEmail]));
    expect(waiting.map((r) => r.to).sort()).toEqual([keptEmail, goneEmail].sort());

    expect(await w.services().newsletter.remove(admin, goneId)).toEqual({ removed: true, email: goneEmail });
    expect(
      await db().query.newsletterSubscriptions.findFirst({ where: eq(schema.newsletterSubscriptions.id, goneId) }),
    ).toBeUndefined();
    const deliveries = await db()
      .select()
      .from(schema.newsletterDeliveries)
      .where(eq(schema.newsletterDeliveries.subscriptionId, goneId));
    expect(deliveries).toHaveLength(0);

    // The outbox's retry sends the kept address's message only.
    await db()
      .update(schema.mailOutbox)
      .set({ nextAttemptAt: 0 })
      .where(inArray(schema.mailOutbox.toAddress, [goneEmail, keptEmail]));
    for (let i = 0; i < 3; i++) await createServices(w.env).mailer.retryDue();
    // A later post goes to the kept address, never to the removed one.
    await w.services().blogs.create(author, post());
    await w.queue.drain(w.env);
    expect(w.box.to(goneEmail)).toHaveLength(0);
    expect(w.box.to(keptEmail)).toHaveLength(2);
  }, 30_000);

  it("refuses a non-admin, and answers 404 for an unknown or malformed id", async () => {
    const id = await confirmed(`stay-${tag()}@example.com`);
    const services = createServices(env);
    await expect(services.newsletter.remove(actorOf(await makeUser()), id)).rejects.toBeInstanceOf(Forbidden);
    const admin = actorOf(await makeUser({ role: "admin" }));
    await expect(services.newsletter.remove(admin, "abcdefghij0123456789")).rejects.toBeInstanceOf(NotFound);
    await expect(services.newsletter.remove(admin, "../x")).rejects.toBeInstanceOf(NotFound);
    expect((await services.newsletter.byId(admin, id)).state).toBe("confirmed");
  });
});

describe("newsletter: the subscribe answer", () => {
  it("tells only the signed-in owner of a verified, confirmed address that it is subscribed already", async () => {
    const services = createServices(env);
    const t = tag();
    const owner = await makeUser({ email: `owner-${t}@example.com`, emailVerifiedAt: Date.now() });
    await confirmed(owner.email);
    const verifiedOwner = actorOf(owner, { emailVerified: true });
    expect(await services.newsletter.subscribe(owner.email, `10.77.0.${n % 250}`, null, null, verifiedOwner)).toEqual({
      subscribed: true,
      already: true,
    });
    // Anyone else (a visitor, another account, the owner before proving the address) hears the uniform answer.
    const other = actorOf(await makeUser(), { emailVerified: true });
    for (const who of [null, other, actorOf(owner, { emailVerified: false })])
      expect(await services.newsletter.subscribe(owner.email, `10.77.1.${n++ % 250}`, null, null, who)).toEqual({
        subscribed: true,
      });
    // The owner's own address still pending: uniform too (a link goes out).
    const pendingOwner = await makeUser({ email: `pending-${t}@example.com`, emailVerifiedAt: Date.now() });
    expect(
      await services.newsletter.subscribe(pendingOwner.email, `10.77.2.1`, null, null, {
        ...actorOf(pendingOwner),
        emailVerified: true,
      }),
    ).toEqual({ subscribed: true });
  });
});
