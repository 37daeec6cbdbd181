import { env } from "cloudflare:workers";
import { and, eq, inArray, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { FANOUT, NEWSLETTER_TEXTS } from "#worker/services/newsletter/model.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db } from "../support/factories";
import { linkIn } from "../support/mail";
import { newsletterWorld, tag } from "../support/kernel";
import { newsletterPost, writerActor } from "../support/newsletter";
import { postPath } from "#worker/services/blogs/slug.ts";

let n = 0;
/** A client address of its own for each subscription (the limit is per client, and none is one shared client). */
const ip = () => `10.21.${Math.floor(n / 250) % 250}.${n++ % 250}`;

const world = newsletterWorld;
const writer = writerActor;
const post = newsletterPost;

/** Confirmed subscribers written straight into D1 (the fan-out's input), in D1-sized statements. */
async function confirmedSubscribers(prefix: string, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.com`);
  const rows = emails.map((email) => ({ id: newId(), email, state: "confirmed" as const, confirmedAt: Date.now() }));
  const statements = [];
  for (let i = 0; i < rows.length; i += 20)
    statements.push(
      db()
        .insert(schema.newsletterSubscriptions)
        .values(rows.slice(i, i + 20)),
    );
  await db().batch(statements as [(typeof statements)[0], ...typeof statements]);
  return emails;
}

async function subscribeAndConfirm(w: ReturnType<typeof world>, email: string) {
  await w.services().newsletter.subscribe(email, ip());
  const [mail] = w.box.to(email);
  const link = linkIn(mail, "/newsletter/confirm");
  await w.services().newsletter.confirm(link.searchParams.get("token"));
  return link;
}

const outboxTo = (emails: string[]) =>
  db()
    .select({ to: schema.mailOutbox.toAddress, kind: schema.mailOutbox.kind })
    .from(schema.mailOutbox)
    .where(and(inArray(schema.mailOutbox.toAddress, emails), eq(schema.mailOutbox.kind, "newsletter-post")));

describe("newsletter: double opt-in", () => {
  it("mails a confirmation link; only a confirmed address gets posts, never a pending or unsubscribed one", async () => {
    const w = world();
    const t = tag();
    const pending = `pending-${t}@example.com`;
    const confirmed = `confirmed-${t}@example.com`;
    const gone = `gone-${t}@example.com`;

    await w.services().newsletter.subscribe(pending, ip());
    const [confirmation] = w.box.to(pending);
    expect(confirmation?.subject).toBe("Confirm your subscription to Edge Blog");
    expect(linkIn(confirmation, "/newsletter/confirm").origin).toBe("https://blog.test");

    await subscribeAndConfirm(w, confirmed);
    await subscribeAndConfirm(w, gone);
    // Subscribing again once confirmed sends no second confirmation.
    await w.services().newsletter.subscribe(confirmed, ip());
    expect(w.box.to(confirmed)).toHaveLength(1);

    // The unsubscribe link from a newsletter message: taken from a message after the first post.
    const author = await writer();
    await w.services().blogs.create(author, post());
    await w.queue.drain(w.env);
    const [firstPost] = w.box.to(gone).filter((m) => m.subject !== "Confirm your subscription to Edge Blog");
    const unsubscribe = linkIn(firstPost, "/newsletter/unsubscribe");
    await w.services().newsletter.unsubscribe(unsubscribe.searchParams.get("token"));

    const before = w.box.sent.length;
    const { insertedId } = await w.services().blogs.create(author, post());
    await w.queue.drain(w.env);
    const after = w.box.sent.slice(before);
    expect(after.filter((m) => m.to === confirmed)).toHaveLength(1);
    expect(after.filter((m) => m.to === pending)).toHaveLength(0);
    expect(after.filter((m) => m.to === gone)).toHaveLength(0);

    const message = after.find((m) => m.to === confirmed)!;
    const blog = await db().query.blogs.findFirst({ where: eq(schema.blogs.id, insertedId) });
    expect(message.subject).toBe(blog!.title);
    expect(message.text).toContain("What happened this week.");
    expect(linkIn(message, postPath(blog!)).origin).toBe("https://blog.test");
    expect(message.html).toContain('src="https://blog.test/images/cover-0001.png"');
    // RFC 8058: the one-click headers name the signed link of this address.
    const headers = (message as unknown as { headers: Record<string, string> }).headers;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toBe(`<${linkIn(message, "/newsletter/unsubscribe").href}>`);
  });

  it("refuses a confirmation link that was altered or has expired", async () => {
    const w = world();
    const email = `alter-${tag()}@example.com`;
    await w.services().newsletter.subscribe(email, ip());
    const token = linkIn(w.box.to(email)[0], "/newsletter/confirm").searchParams.get("token")!;
    const [id, expires, sig] = token.split(".");
    const later = (Date.now() + 365 * 24 * 3600 * 1000).toString(36);
    await expect(w.services().newsletter.confirm(`${id}.${later}.${sig}`)).rejects.toThrow(
      NEWSLETTER_TEXTS.invalidLink,
    );
    await expect(w.services().newsletter.confirm(token, parseInt(expires!, 36) + 1)).rejects.toThrow(
      NEWSLETTER_TEXTS.expiredLink,
    );
    const row = await db().query.newsletterSubscriptions.findFirst({
      where: eq(schema.newsletterSubscriptions.email, email),
    });
    expect(row?.state).toBe("pending");
  });
});

describe("newsletter: unsubscribe by signed link only", () => {
  it("a forged or altered token is refused, the real one unsubscribes", async () => {
    const w = world();
    const email = `unsub-${tag()}@example.com`;
    const confirmLink = await subscribeAndConfirm(w, email);
    const { unsubscribeToken } = await w.services().newsletter.confirm(confirmLink.searchParams.get("token"));
    const [id, sig] = unsubscribeToken.split(".");
    const other = await db().query.newsletterSubscriptions.findFirst({
      where: like(schema.newsletterSubscriptions.email, "%@example.com"),
    });
    const flip = (s: string) => (s.at(-1) === "A" ? `${s.slice(0, -1)}B` : `${s.slice(0, -1)}A`);
    const forged = [
      "",
      "nonsense",
      `${id}`,
      `${id}.${flip(sig!)}`,
      `${flip(id!)}.${sig}`,
      `${other!.id}.${sig}`,
      // A confirmation token is signed for another purpose.
      confirmLink.searchParams.get("token"),
      `${unsubscribeToken}x`,
    ];
    for (const token of forged) {
      await expect(w.services().newsletter.unsubscribe(token)).rejects.toThrow(NEWSLETTER_TEXTS.invalidLink);
    }
    const still = await db().query.newsletterSubscriptions.findFirst({
      where: eq(schema.newsletterSubscriptions.email, email),
    });
    expect(still?.state).toBe("confirmed");
    await expect(w.services().newsletter.unsubscribe(unsubscribeToken)).resolves.toEqual({ email });
    const row = await db().query.newsletterSubscriptions.findFirst({
      where: eq(schema.newsletterSubscriptions.email, email),
    });
    expect(row?.state).toBe("unsubscribed");
  });
});

describe("newsletter: fan-out through the queue", () => {
  it("mails 2,000 confirmed subscribers exactly once, even when every batch is delivered twice", async () => {
    const w = world();
    const prefix = `fan-${tag()}`;
    const emails = await confirmedSubscribers(prefix, 2000);
    const { insertedId } = await w.services().blogs.create(await writer(), post());
    expect(w.queue.pending).toEqual([{ kind: "fanout", blogId: insertedId, after: "", origin: "https://blog.test" }]);

    // Every batch runs twice (a forced retry after the consumer did its work).
    const jobs = await w.queue.drain(w.env, { twice: true });
    expect(jobs.filter((j) => j.kind === "send").length).toBeGreaterThanOrEqual(2000 / FANOUT.chunk);

    const mine = new Set(emails);
    const got = w.box.sent.filter((m) => mine.has(m.to as string));
    expect(got).toHaveLength(2000);
    expect(new Set(got.map((m) => m.to)).size).toBe(2000);
    expect(await outboxTo(emails.slice(0, 90))).toHaveLength(90);

    // The admin's count for this post.
    const admin: Actor = { ...(await writer()), role: "admin" };
    const { sends } = await w.services().newsletter.sends(admin, {});
    const send = sends.find((s) => s.blog_id === insertedId)!;
    // Exactly this post's messages (every confirmed address in the database, this test's 2,000 among them).
    const confirmed = await db()
      .select({ n: sql<number>`count(*)` })
      .from(schema.newsletterSubscriptions)
      .where(eq(schema.newsletterSubscriptions.state, "confirmed"));
    expect(send.sent).toBe(confirmed[0]?.n);
    expect(send.queued).toBe(0);
    expect(send.failed).toBe(0);
    expect(send.completed).toBe(true);
  }, 180_000);

  it("a batch retried after a failed send mails nobody twice; the outbox retries the failures", async () => {
    const w = world();
    const emails = await confirmedSubscribers(`retry-${tag()}`, FANOUT.chunk * 2);
    await w.services().blogs.create(await writer(), post());
    // Every send fails (Email Service is down) ...
    w.box.fail();
    const jobs = await w.queue.drain(w.env);
    w.box.recover();
    // ... and the platform delivers every job again: the claimed addresses are not claimed again.
    for (let i = 0; i < jobs.length; i += 10) await w.queue.deliver(w.env, jobs.slice(i, i + 10), 2);
    expect(w.box.sent.filter((m) => emails.includes(m.to as string))).toHaveLength(0);
    // The cron's outbox retry gets each message out once.
    const rows = await outboxTo(emails);
    expect(rows).toHaveLength(emails.length);
    await db().update(schema.mailOutbox).set({ nextAttemptAt: 0 }).where(inArray(schema.mailOutbox.toAddress, emails));
    for (let i = 0; i < 4; i++) await createServices(w.env).mailer.retryDue();
    const got = w.box.sent.filter((m) => emails.includes(m.to as string));
    expect(got).toHaveLength(emails.length);
    expect(new Set(got.map((m) => m.to)).size).toBe(emails.length);
  }, 30_000);

  it("an edited and republished post is not mailed again; a ticked or draft post is not mailed at all", async () => {
    const w = world();
    const emails = await confirmedSubscribers(`repub-${tag()}`, 5);
    const author = await writer();
    const { insertedId } = await w.services().blogs.create(author, post());
    await w.queue.drain(w.env);
    expect(w.box.sent.filter((m) => emails.includes(m.to as string))).toHaveLength(5);

    await w.services().blogs.update(author, insertedId, { status: "draft" });
    await w.services().blogs.update(author, insertedId, { title: "Changed title", status: "published" });
    expect(w.queue.pending).toHaveLength(0);
    // Even a fan-out job run again for it finds every address already sent.
    await w.queue.deliver(w.env, [{ kind: "fanout", blogId: insertedId, after: "", origin: null }]);
    await w.queue.drain(w.env);
    expect(w.box.sent.filter((m) => emails.includes(m.to as string))).toHaveLength(5);

    // A draft is never mailed, nor a post scheduled for later.
    const draft = await w.services().blogs.create(author, post({ status: "draft" }));
    const scheduled = await w
      .services()
      .blogs.create(author, post({ status: "scheduled", date_time: new Date(Date.now() + 3_600_000).toISOString() }));
    expect(w.queue.pending).toHaveLength(0);
    // A fan-out queued for a post that is not public sends nothing.
    await w.queue.deliver(w.env, [
      { kind: "fanout", blogId: draft.insertedId, after: "", origin: null },
      { kind: "send", blogId: scheduled.insertedId, ids: [], origin: null },
    ]);
    expect(w.queue.pending).toHaveLength(0);

    // "Don't email this post", then published: no send.
    const quiet = await w.services().blogs.create(author, post({ status: "draft", no_email: "on" }));
    await w.services().blogs.update(author, quiet.insertedId, { status: "published" });
    expect(w.queue.pending).toHaveLength(0);
    const sendRows = await db()
      .select({ n: sql<number>`count(*)` })
      .from(schema.newsletterSends)
      .where(inArray(schema.newsletterSends.blogId, [draft.insertedId, scheduled.insertedId, quiet.insertedId]));
    expect(sendRows[0]?.n).toBe(0);

    // The scheduler publishing a due post sends it.
    const due = await w
      .services()
      .blogs.create(author, post({ status: "scheduled", date_time: new Date(Date.now() + 60_000).toISOString() }));
    await w.services().blogs.publishDue(Date.now() + 120_000);
    expect(w.queue.pending.some((j) => j.blogId === due.insertedId)).toBe(true);
  }, 30_000);
});

describe("newsletter: admin", () => {
  it("lists subscribers paginated and searchable with their state; exports and imports confirmed ones as CSV", async () => {
    const w = world();
    const admin: Actor = { ...(await writer()), role: "admin" };
    const t = tag();
    await confirmedSubscribers(`adm-${t}`, 30);
    await w.services().newsletter.subscribe(`adm-${t}-pending@example.com`, ip());
    const page1 = await w.services().newsletter.subscribers(admin, { q: `adm-${t}` });
    expect(page1.total).toBe(31);
    expect(page1.subscribers).toHaveLength(25);
    expect(page1.pages).toBe(2);
    const pendingOnly = await w.services().newsletter.subscribers(admin, { q: `adm-${t}`, state: "pending" });
    expect(pendingOnly.subscribers.map((s) => [s.email, s.state])).toEqual([
      [`adm-${t}-pending@example.com`, "pending"],
    ]);
    // A % in the search is a literal character, not a wildcard.
    expect((await w.services().newsletter.subscribers(admin, { q: "%" })).total).toBe(0);

    const csv = await w.services().newsletter.exportCsv(admin);
    expect(csv.split("\n")[0]).toBe("email,confirmed_at");
    expect(csv).toContain(`adm-${t}-0@example.com`);
    expect(csv).not.toContain(`adm-${t}-pending@example.com`);

    const result = await w
      .services()
      .newsletter.importCsv(
        admin,
        `Email,Name\nimp-${t}@example.com,Ada\n"IMP-${t}@EXAMPLE.COM",Ada again\nnot an address,x\nadm-${t}-pending@example.com,\n`,
      );
    expect(result).toEqual({ imported: 2, skipped: 0, invalid: ["not an address"] });
    const imported = await w.services().newsletter.subscribers(admin, { q: `imp-${t}` });
    expect(imported.subscribers.map((s) => s.state)).toEqual(["confirmed"]);
    const wasPending = await w.services().newsletter.subscribers(admin, { q: `adm-${t}-pending` });
    expect(wasPending.subscribers[0]?.state).toBe("confirmed");

    const reader: Actor = { ...admin, role: "user" };
    await expect(w.services().newsletter.subscribers(reader, {})).rejects.toThrow("Only an admin");
    await expect(w.services().newsletter.exportCsv(null)).rejects.toThrow();
  });
});

describe("newsletter: the queue", () => {
  it("is bound in the Worker (wrangler.toml [[queues.producers]])", () => {
    expect(env.NEWSLETTER_QUEUE).toBeDefined();
  });
});
