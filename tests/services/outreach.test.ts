import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { OUTREACH_HELD_TEXT } from "#worker/services/texts.ts";
import { db, makeUser, sessionFor } from "../support/factories";
import { flashOf } from "../support/flash";
import { json } from "../support/http";
import { callWith, sendWith } from "../support/mail";
import { pngFile, postForm } from "../support/pages";
import { outreachWorld, tag } from "../support/kernel";

/**
 * Outreach (the newsletter, followers' notifications, the fediverse) needs a writer whose address is
 * proven: an account anyone made with any address must not mail every subscriber from the site.
 */

const post = () => ({
  title: `News ${tag()}`,
  short_description: "What happened this week.",
  blog_details: "The whole story.",
  category: "Technology",
  image: "/images/cover-0001.png",
  date_time: new Date().toISOString(),
});

async function subscribers(count: number): Promise<string[]> {
  const t = tag();
  const emails = Array.from({ length: count }, (_, i) => `reader-${t}-${i}@example.com`);
  await db()
    .insert(schema.newsletterSubscriptions)
    .values(emails.map((email) => ({ id: newId(), email, state: "confirmed" as const, confirmedAt: Date.now() })));
  return emails;
}

const newsletterMail = (emails: string[]) =>
  db()
    .select()
    .from(schema.mailOutbox)
    .where(and(inArray(schema.mailOutbox.toAddress, emails), eq(schema.mailOutbox.kind, "newsletter-post")));
const sendsFor = (blogId: string) =>
  db().select().from(schema.newsletterSends).where(eq(schema.newsletterSends.blogId, blogId));
const federatedFor = (blogId: string) => db().select().from(schema.apPosts).where(eq(schema.apPosts.blogId, blogId));

async function publish(w: ReturnType<typeof outreachWorld>, writer: { id: string; email: string }) {
  const res = await sendWith(w.env, "POST", "/api/blogs", post(), {
    Authorization: `Bearer ${await sessionFor(writer)}`,
  });
  expect(res.status).toBe(201);
  return json<{ insertedId: string; notice?: string }>(res);
}

describe("outreach needs a verified writer", () => {
  it("an unverified writer's post is on the site but mails and federates nothing, and the answer says why; a verified writer's goes", async () => {
    const w = outreachWorld();
    const readers = await subscribers(3);
    const follower = await makeUser();

    const squatter = await makeUser({ emailVerifiedAt: null });
    await db().insert(schema.follows).values({ followerId: follower.id, writerId: squatter.id });
    const held = await publish(w, squatter);
    expect(held.notice).toBe(OUTREACH_HELD_TEXT);
    expect((await callWith(w.env, `/api/blogs/${held.insertedId}`)).status).toBe(200);
    expect(await sendsFor(held.insertedId)).toHaveLength(0);
    expect(w.newsletter.pending).toHaveLength(0);
    expect(w.notify.pending).toHaveLength(0);
    expect(await federatedFor(held.insertedId)).toHaveLength(0);
    expect(w.federation.pending).toHaveLength(0);
    await w.newsletter.drain(w.env);
    expect(await newsletterMail(readers)).toHaveLength(0);
    expect(w.box.sent.filter((m) => readers.includes(m.to as string))).toHaveLength(0);

    const writer = await makeUser();
    await db().insert(schema.follows).values({ followerId: follower.id, writerId: writer.id });
    const sent = await publish(w, writer);
    expect(sent.notice).toBeUndefined();
    expect(await sendsFor(sent.insertedId)).toHaveLength(1);
    expect(w.notify.pending).toEqual([expect.objectContaining({ kind: "notify-post", blogId: sent.insertedId })]);
    expect(await federatedFor(sent.insertedId)).toHaveLength(1);
    await w.newsletter.drain(w.env);
    expect((await newsletterMail(readers)).map((m) => m.toAddress).sort()).toEqual([...readers].sort());
  });

  it("a scheduled post whose writer is still unverified when its time comes is published on the site only", async () => {
    const w = outreachWorld();
    const readers = await subscribers(2);
    const writer = await makeUser({ emailVerifiedAt: null });
    const services = createServices(w.env, undefined, "https://blog.test");
    const actor = { id: writer.id, name: writer.name, email: writer.email, role: "user" as const, photoURL: null };
    const when = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const { insertedId, notice } = await services.blogs.create(actor, {
      ...post(),
      status: "scheduled",
      date_time: when,
    });
    expect(notice).toBe(OUTREACH_HELD_TEXT);
    await services.blogs.publishDue(Date.now() + 2 * 60 * 60 * 1000);
    const row = await db().query.blogs.findFirst({ where: eq(schema.blogs.id, insertedId) });
    expect(row?.status).toBe("published");
    expect(await sendsFor(insertedId)).toHaveLength(0);
    expect(await federatedFor(insertedId)).toHaveLength(0);
    await w.newsletter.drain(w.env);
    expect(await newsletterMail(readers)).toHaveLength(0);
  });

  it("the page after Post Blog tells an unverified writer why nothing was mailed", async () => {
    const writer = await makeUser({ emailVerifiedAt: null });
    const res = await postForm(
      "/dashboard/writeBlogs",
      writer,
      {
        title: `News ${tag()}`,
        category: "Travel",
        date_time: "2026-11-21T10:30",
        tz: "+02:00",
        short_description: "A weekend with one small bag.",
        blog_details: "Packing light changes how you travel.",
      },
      { image: pngFile() },
    );
    expect(res.status).toBe(302);
    expect(flashOf(res)).toMatchObject({ kind: "alert", text: OUTREACH_HELD_TEXT });
  });
});
