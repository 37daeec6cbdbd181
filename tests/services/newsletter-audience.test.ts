import { afterEach, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { Forbidden, ValidationError } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { asUser, db, makeBlog, makeUser } from "../support/factories";
import { call, send } from "../support/http";
import { newsletterWorld, tag, type NewsletterWorld } from "../support/kernel";
import { confirmedSubscriber, newsletterPost, writerActor } from "../support/newsletter";

/**
 * Who a post's newsletter goes to (issue 46): everyone, the free subscribers or the paid ones; the admin's choice,
 * per post or as the site's default, fixed on the send when it starts.
 */

const adminActor = async (): Promise<Actor> => ({ ...(await writerActor()), role: "admin" });

/** Four confirmed subscribers: a paid member, a comped one, a free account and an address without an account. */
async function readers() {
  const paid = await makeUser({ email: `paid-${tag()}@example.com` });
  await db().insert(schema.members).values({ userId: paid.id, status: "paid", subscriptionStatus: "active" });
  const tierId = `tier-${tag()}`;
  await db()
    .insert(schema.memberTiers)
    .values({ id: tierId, name: "Gift", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" });
  const comped = await makeUser({ email: `comped-${tag()}@example.com` });
  await db().insert(schema.members).values({ userId: comped.id, status: "comped", compTierId: tierId });
  const free = await makeUser({ email: `free-${tag()}@example.com` });
  // A paid member who never proved the address is not known to be the member: counted with the free ones.
  const unproven = await makeUser({ email: `unproven-${tag()}@example.com`, emailVerifiedAt: null });
  await db().insert(schema.members).values({ userId: unproven.id, status: "paid", subscriptionStatus: "active" });
  const stranger = `stranger-${tag()}@example.com`;
  const all = { paid: paid.email, comped: comped.email, free: free.email, unproven: unproven.email, stranger };
  for (const email of Object.values(all)) await confirmedSubscriber(email);
  return all;
}

/** Publishes a post (as an admin when it chooses an audience) and answers who got its newsletter. */
async function mailedTo(w: NewsletterWorld, people: Record<string, string>, extra: Record<string, unknown> = {}) {
  const title = `Audience ${tag()}`;
  const author = extra.newsletter_audience === undefined ? await writerActor() : await adminActor();
  const { insertedId } = await w.services().blogs.create(author, newsletterPost({ title, ...extra }));
  await w.queue.drain(w.env);
  const got = Object.entries(people)
    .filter(([, email]) => w.box.to(email).some((m) => m.subject === title))
    .map(([who]) => who)
    .sort();
  // Every message of this post, to this test's subscribers and to earlier tests' (the file shares its D1).
  const messages = w.box.sent.filter((m) => m.subject === title).length;
  return { got, id: insertedId, messages };
}

const PAYING = ["comped", "paid"];
const NOT_PAYING = ["free", "stranger", "unproven"];

describe("newsletter: who a send goes to", () => {
  afterEach(async () => {
    await db().delete(schema.siteSettings);
  });

  it("goes to every subscriber by default, and the send says so", async () => {
    const w = newsletterWorld();
    const people = await readers();
    const { got, id, messages } = await mailedTo(w, people);
    expect(got).toEqual([...PAYING, ...NOT_PAYING].sort());
    expect(messages).toBe(await db().$count(schema.newsletterSubscriptions));
    const { sends } = await w.services().newsletter.sends(await adminActor(), {});
    expect(sends.find((s) => s.blog_id === id)).toMatchObject({
      audience: "everyone",
      sent: messages,
      queued: 0,
      failed: 0,
    });
  });

  it("a post an admin sends to paid members reaches only paid and comped ones; to free ones, only the others", async () => {
    const w = newsletterWorld();
    const people = await readers();
    const paid = await mailedTo(w, people, { newsletter_audience: "paid" });
    expect(paid.got).toEqual(PAYING);
    const free = await mailedTo(w, people, { newsletter_audience: "free" });
    expect(free.got).toEqual(NOT_PAYING);
    const { sends } = await w.services().newsletter.sends(await adminActor(), {});
    // Counted as sent: only the messages of its audience (nobody else is queued or counted).
    expect(sends.find((s) => s.blog_id === paid.id)).toMatchObject({
      audience: "paid",
      sent: paid.messages,
      queued: 0,
    });
    expect(sends.find((s) => s.blog_id === free.id)).toMatchObject({
      audience: "free",
      sent: free.messages,
      queued: 0,
    });
    const subscribers = await db().$count(schema.newsletterSubscriptions);
    expect(paid.messages + free.messages).toBe(subscribers);
  });

  it("the site's default applies to posts that did not choose, and a post's own choice wins", async () => {
    const w = newsletterWorld();
    const admin = await adminActor();
    const people = await readers();
    expect(await w.services().newsletter.audienceDefault(admin)).toBe("everyone");
    expect(await w.services().newsletter.setAudienceDefault(admin, { audience: "paid" })).toEqual({ modifiedCount: 1 });
    expect(await w.services().newsletter.setAudienceDefault(admin, { audience: "paid" })).toEqual({ modifiedCount: 0 });
    expect((await mailedTo(w, people)).got).toEqual(PAYING);
    expect((await mailedTo(w, people, { newsletter_audience: "" })).got).toEqual(PAYING);
    expect((await mailedTo(w, people, { newsletter_audience: "everyone" })).got).toEqual(
      [...PAYING, ...NOT_PAYING].sort(),
    );
  });

  it("the audience is fixed when the send starts: changing the default later does not change it", async () => {
    const w = newsletterWorld();
    const admin = await adminActor();
    const people = await readers();
    const title = `Fixed ${tag()}`;
    await w.services().blogs.create(await writerActor(), newsletterPost({ title }));
    // The fan-out has not run yet when the admin changes the default.
    await w.services().newsletter.setAudienceDefault(admin, { audience: "paid" });
    await w.queue.drain(w.env);
    const got = Object.values(people).filter((email) => w.box.to(email).some((m) => m.subject === title));
    expect(got).toHaveLength(5);
  });

  it("only an admin chooses: the default, and a post's audience (a writer's form is refused with why)", async () => {
    const w = newsletterWorld();
    const writer = await writerActor();
    await expect(w.services().newsletter.setAudienceDefault(writer, { audience: "paid" })).rejects.toBeInstanceOf(
      Forbidden,
    );
    const admin = await adminActor();
    for (const audience of ["members", "", null, 3]) {
      const err = await w
        .services()
        .newsletter.setAudienceDefault(admin, { audience })
        .catch((e: unknown) => e);
      expect(err, String(audience)).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).fields)).toEqual(["audience"]);
    }
    const refused = await w
      .services()
      .blogs.create(writer, newsletterPost({ newsletter_audience: "paid" }))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Forbidden);
    expect((refused as Error).message).toBe("Only an admin chooses who a post's newsletter goes to.");
  });

  it("through the API: an admin sets a post's audience on any post; its writer may not, and the post is unchanged", async () => {
    const writer = await makeUser();
    const admin = await makeUser({ role: "admin" });
    const blog = await makeBlog(writer, { status: "draft" });
    const mine = await send("PUT", `/api/blog/${blog.id}`, { newsletter_audience: "paid" }, await asUser(writer));
    expect(mine.status).toBe(403);
    expect(((await mine.json()) as { error: { message: string } }).error.message).toBe(
      "Only an admin chooses who a post's newsletter goes to.",
    );
    const bad = await send("PUT", `/api/blogs/${blog.id}`, { newsletter_audience: "vip" }, await asUser(admin));
    expect(bad.status).toBe(400);
    const theirs = await send("PUT", `/api/blogs/${blog.id}`, { newsletter_audience: "free" }, await asUser(admin));
    expect(theirs.status).toBe(200);
    const record = await call(`/api/blogs/${blog.id}`, { headers: await asUser(writer) });
    const read = (await record.json()) as { newsletter_audience: string; title: string };
    expect(read.newsletter_audience).toBe("free");
    // The writer may send the record back as read (the audience unchanged), never a change of it.
    const back = await send(
      "PUT",
      `/api/blog/${blog.id}`,
      { title: "Renamed", newsletter_audience: "free" },
      await asUser(writer),
    );
    expect(back.status).toBe(200);
    const changed = await send("PUT", `/api/blog/${blog.id}`, { newsletter_audience: "" }, await asUser(writer));
    expect(changed.status).toBe(403);
  });
});
