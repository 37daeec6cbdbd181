import { and, isNull, lte } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import { logError } from "#worker/log.ts";
import { readSiteSetting } from "#worker/services/site-settings.ts";
import type { NewsletterJob } from "#worker/services/newsletter/model.ts";
import { createNewsletterAdmin } from "#worker/services/newsletter/admin.ts";
import { createNewsletterDelivery } from "#worker/services/newsletter/delivery.ts";
import { createNewsletterSubscriptions } from "#worker/services/newsletter/subscriptions.ts";

/**
 * The newsletter: subscriptions (subscriptions.ts), the queue's fan-out and sends (delivery.ts) and
 * the admin's pages (admin.ts); the shapes and limits are in model.ts.
 */
export function createNewsletterService(k: Kernel, deps: { mailer: Mailer }) {
  const { db } = k;
  const s = schema.newsletterSends;
  const subscriptions = createNewsletterSubscriptions(k, deps);
  const { visiblePost, queue, enqueue, fanout, send } = createNewsletterDelivery(k, deps);

  return {
    ...subscriptions,
    ...createNewsletterAdmin(k, deps),

    /**
     * A post just became public: the first time (with mailing on), its send is recorded and the
     * fan-out queued. Later edits and republishing find the send and do nothing.
     */
    async announce(blogId: string, origin: string | null = k.origin): Promise<boolean> {
      const post = await visiblePost(blogId);
      if (!post || !post.emailSubscribers) return false;
      // Who it goes to is fixed now: the post's own choice (an admin's), else the site's default.
      const audience = post.newsletterAudience || (await readSiteSetting(db, "newsletter_audience"));
      const started = await db
        .insert(s)
        .values({ blogId, title: post.title, audience })
        .onConflictDoNothing()
        .returning({ id: s.blogId });
      if (started.length === 0) return false;
      try {
        await queue().send({ kind: "fanout", blogId, after: "", origin }, { contentType: "json" });
      } catch (err) {
        // The cron's resume picks it up (resumeStalled).
        logError("newsletter: could not queue a fan-out", err);
      }
      return true;
    },

    /** The minute cron: fan-outs that never finished (a queue outage) walk the list again. Idempotent. */
    async resumeStalled(now = Date.now()): Promise<number> {
      const stalled = await db
        .select({ blogId: s.blogId })
        .from(s)
        .where(and(isNull(s.completedAt), lte(s.createdAt, now - 15 * 60 * 1000)))
        .limit(5);
      await enqueue(stalled.map((r) => ({ kind: "fanout", blogId: r.blogId, after: "", origin: null })));
      return stalled.length;
    },

    /** The queue consumer's work for one message. */
    async run(job: NewsletterJob): Promise<void> {
      if (job.kind === "fanout") return fanout(job);
      if (job.kind === "send") return send(job);
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
