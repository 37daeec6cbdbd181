import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import worker from "#worker/index.ts";
import { createServices } from "#worker/services/index.ts";
import { backoffMs, OUTBOX } from "#worker/services/mail/mailer.ts";
import { db } from "../support/factories";
import { linkIn, mailbox } from "../support/mail";

let counter = 0;
const address = () => `mail-${Date.now().toString(36)}${counter++}@example.com`;
const outboxRow = (id: string) => db().query.mailOutbox.findFirst({ where: eq(schema.mailOutbox.id, id) });

function verifyMail(to: string, expiresAt?: number) {
  return {
    kind: "verify-email" as const,
    to,
    params: { name: "Ada", url: "https://blog.test/verify-email?token=abc" },
    origin: "https://blog.test",
    expiresAt,
  };
}

describe("the mailer and its outbox", () => {
  it("sends a message with a text part and an HTML part, from MAIL_FROM, with the site's name", async () => {
    const box = mailbox();
    const mailer = createServices(box.env()).mailer;
    const to = address();
    expect(await mailer.send(verifyMail(to))).toBe(true);
    const [message] = box.to(to);
    expect(message?.from).toEqual({ email: "no-reply@edgeblog.example", name: "Edge Blog" });
    expect(message?.subject).toBe("Confirm your email address for Edge Blog");
    expect(message?.text).toContain("Edge Blog");
    expect(linkIn(message, "/verify-email").href).toBe("https://blog.test/verify-email?token=abc");
    // Readable in dark-mode clients: the HTML declares both schemes and has dark colours.
    expect(message?.html).toContain('name="color-scheme" content="light dark"');
    expect(message?.html).toContain("prefers-color-scheme: dark");
    expect(message?.html).toContain('href="https://blog.test/verify-email?token=abc"');
  });

  it("escapes what a person typed (a name) in the HTML part", async () => {
    const box = mailbox();
    const to = address();
    await createServices(box.env()).mailer.send({
      ...verifyMail(to),
      params: { name: '<img src=x onerror="alert(1)">', url: "https://blog.test/verify-email?token=abc" },
    });
    expect(box.to(to)[0]?.html).not.toContain("<img src=x");
    expect(box.to(to)[0]?.html).toContain("&lt;img src=x");
  });

  it("keeps a message the binding refused, with attempts and the last error, and sends it on the next try", async () => {
    const box = mailbox();
    box.fail("Email Service is down");
    const now = Date.now();
    const mailer = createServices(box.env()).mailer;
    const to = address();
    const composed = mailer.compose(verifyMail(to), now);
    await db().batch(composed.statements);
    expect(await mailer.deliver([composed], now)).toBe(false);

    let row = await outboxRow(composed.id);
    expect(row).toMatchObject({ attempts: 1, lastError: "Email Service is down", sentAt: null });
    expect(row?.nextAttemptAt).toBe(now + backoffMs(1));
    expect(row?.text).toContain("/verify-email?token=abc");

    // Not due yet: nothing is tried.
    box.recover();
    expect(await mailer.retryDue(now + backoffMs(1) - 1)).toBe(0);
    expect(box.to(to)).toHaveLength(0);

    // Due, and the service is back: it goes out, and its body (a link) is no longer kept.
    await mailer.retryDue(now + backoffMs(1));
    expect(box.to(to)).toHaveLength(1);
    row = await outboxRow(composed.id);
    expect(row).toMatchObject({ attempts: 2, lastError: null, text: "", html: "" });
    expect(row?.sentAt).not.toBeNull();

    // Sent once only: a later run finds nothing to send.
    await mailer.retryDue(now + 10 * 60 * 60 * 1000);
    expect(box.to(to)).toHaveLength(1);
  });

  it("waits longer after each failure, and gives up after the last try", async () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(backoffMs(30)).toBe(OUTBOX.maxDelayMs);

    const box = mailbox();
    box.fail();
    const mailer = createServices(box.env()).mailer;
    let now = Date.now();
    const composed = mailer.compose(verifyMail(address()), now);
    await db().batch(composed.statements);
    await mailer.deliver([composed], now);
    for (let attempt = 2; attempt <= OUTBOX.maxAttempts + 2; attempt++) {
      now += OUTBOX.maxDelayMs;
      await mailer.retryDue(now);
    }
    const row = await outboxRow(composed.id);
    expect(row?.attempts).toBe(OUTBOX.maxAttempts);
    expect(row?.sentAt).toBeNull();
  });

  it("does not send a message whose link has expired", async () => {
    const box = mailbox();
    box.fail();
    const now = Date.now();
    const mailer = createServices(box.env()).mailer;
    const to = address();
    const composed = mailer.compose(verifyMail(to, now + 30_000), now);
    await db().batch(composed.statements);
    await mailer.deliver([composed], now);
    box.recover();
    await mailer.retryDue(now + backoffMs(1));
    expect(box.to(to)).toHaveLength(0);
    // The hourly sweep drops it.
    await mailer.sweep(now + backoffMs(1));
    expect(await outboxRow(composed.id)).toBeUndefined();
  });

  it("a run takes a bounded batch, and a message being sent is not picked up twice", async () => {
    const box = mailbox();
    box.fail();
    const now = Date.now() + 24 * 60 * 60 * 1000;
    const mailer = createServices(box.env()).mailer;
    const ids: string[] = [];
    for (let i = 0; i < OUTBOX.batch + 5; i++) {
      const composed = mailer.compose(verifyMail(address()), now);
      await db().batch(composed.statements);
      await mailer.deliver([composed], now);
      ids.push(composed.id);
    }
    box.recover();
    const due = now + backoffMs(1);
    const [first, second] = await Promise.all([mailer.retryDue(due), mailer.retryDue(due)]);
    expect(first + second).toBeLessThanOrEqual(OUTBOX.batch * 2);
    const sentTo = box.sent.map((m) => m.to);
    expect(new Set(sentTo).size).toBe(sentTo.length);
    expect(first).toBeLessThanOrEqual(OUTBOX.batch);
  });

  it("the minute cron retries the outbox", async () => {
    const box = mailbox();
    box.fail();
    const to = address();
    const mailer = createServices(box.env()).mailer;
    // Queued long enough ago that its first retry is due now.
    const composed = mailer.compose(verifyMail(to), Date.now() - 10 * 60 * 1000);
    await db().batch(composed.statements);
    await mailer.deliver([composed], Date.now() - 10 * 60 * 1000);
    box.recover();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), box.env(), ctx);
    await waitOnExecutionContext(ctx);
    expect(box.to(to)).toHaveLength(1);
  });
});
