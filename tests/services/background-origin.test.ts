import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import worker from "#worker/index.ts";
import { createServices } from "#worker/services/index.ts";
import type { NotificationJob } from "#worker/services/notifications/service.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { linkIn, mailbox } from "../support/mail";
import { recordingQueue } from "../support/queue";

/**
 * Issue 47: mail sent by a cron run or a queue batch, with SITE_URL unset, links to the origin the site was
 * last written to through, never to http://localhost:8787 (a dead link, unsubscribe included).
 */
const REACHED = "https://reached.example";

async function person(name: string): Promise<Actor & { email: string }> {
  const u = await makeUser({ name });
  return { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null, emailVerified: true };
}

async function cron(env: Cloudflare.Env, schedule: string) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron: schedule }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("background mail without SITE_URL", () => {
  it("links to the origin the site was last written to through: the minute cron's comment mail and the daily digest", async () => {
    const box = mailbox();
    const queue = recordingQueue<NotificationJob>(10, "edge-blog-notifications");
    const env = box.env({ SITE_URL: "", NOTIFY_QUEUE: queue.binding });

    // A write reaches the site (a newsletter sign-up through the real Worker entry, on the site's real host).
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${REACHED}/api/newsletter`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: REACHED, "CF-Connecting-IP": "10.99.0.1" },
        body: JSON.stringify({ email: `origin-${Date.now()}@example.com` }),
      }) as Request<unknown, IncomingRequestCfProperties>,
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(202);

    // Later, work that has no request of its own: comments mailed by the minute cron.
    const author = await person("Background Author");
    const reader = await person("Background Reader");
    const blog = await makeBlog(author, { title: "Mailed later" });
    await createServices(env).comments.create(reader, blog.id, { body: "Hello from afar" });
    await db()
      .update(schema.notifications)
      .set({ createdAt: Date.now() - 10 * 60 * 1000 })
      .where(eq(schema.notifications.userId, author.id));
    await cron(env, "* * * * *");
    const [batch] = box.to(author.email);
    expect(batch).toBeDefined();
    expect(batch!.text).not.toContain("localhost");
    expect(batch!.html).not.toContain("localhost");
    expect(linkIn(batch, "/notifications/unsubscribe").origin).toBe(REACHED);
    expect(linkIn(batch, `/blogs/${blog.id}`).origin).toBe(REACHED);

    // The daily digest: the cron queues it with that origin, and a job queued without one uses it as well.
    await createServices(env).notifications.setPrefs(author, { follow: "digest" });
    await createServices(env).follows.follow(reader, author.id);
    await db()
      .update(schema.notifications)
      .set({ createdAt: Date.now() - 10 * 60 * 1000 })
      .where(eq(schema.notifications.userId, author.id));
    await cron(env, "0 8 * * *");
    expect(queue.pending).toEqual([expect.objectContaining({ kind: "digest", origin: REACHED })]);
    queue.take();
    await queue.deliver(env, [{ kind: "digest", after: "", cutoff: Date.now(), origin: null }]);
    const digest = box.to(author.email).at(-1)!;
    expect(digest.subject).not.toBe(batch!.subject);
    expect(digest.text).not.toContain("localhost");
    expect(linkIn(digest, "/settings").origin).toBe(REACHED);
  });
});
