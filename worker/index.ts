import type { ServerBuild } from "@remix-run/cloudflare";
// The Remix server build exists only after `npm run build` (remix vite:build), so the type
// checker, which runs first, cannot see it.
// Not @ts-expect-error: once a build exists the import resolves, and an unused expect-error fails.
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- the reason is given above
// @ts-ignore
import * as build from "../build/server";
import { createApp } from "#worker/app.ts";
import type { Env } from "#worker/env.ts";
import { isAnalyticsHit, type AnalyticsHit } from "#worker/services/analytics/model.ts";
import type { FederationJob } from "#worker/services/federation/delivery.ts";
import type { ImportJobMessage } from "#worker/services/import/run.ts";
import type { NewsletterJob } from "#worker/services/newsletter/model.ts";
import { isNotificationJob, type NotificationJob } from "#worker/services/notifications/service.ts";
import { serve } from "#worker/serve.ts";
import { createServices } from "#worker/services/index.ts";
import { logError } from "#worker/log.ts";

export { ViewCounter } from "#worker/views/counter.ts";

const app = createApp(build as unknown as ServerBuild);

/** wrangler.toml's minute cron (the other, hourly, runs the sweeps). */
const PUBLISH_CRON = "* * * * *";
/** The daily cron: the notification digest. */
const DIGEST_CRON = "0 8 * * *";

export default {
  fetch: (request, env, ctx) => serve(app, request, env, ctx),
  /** The cron triggers: every minute scheduled posts and mail retries; hourly, the sweeps. */
  async scheduled(controller, env, ctx) {
    const services = createServices(env, ctx);
    const now = Date.now();
    // Every minute: scheduled posts whose time has come are published (and purged from the cache),
    // and mail that could not be sent is tried again (with backoff, a bounded batch).
    if (controller.cron === PUBLISH_CRON) {
      ctx.waitUntil(
        Promise.all([
          services.blogs.publishDue(now),
          services.mailer.retryDue(now),
          services.newsletter.resumeStalled(now),
          services.importRunner.resumeStalled(now),
          // Comments and replies that came in within the last minute: one message per person and kind.
          services.notifications.flushBatches(now),
        ]),
      );
      return;
    }
    if (controller.cron === DIGEST_CRON) {
      ctx.waitUntil(services.notifications.startDigest(now));
      return;
    }
    ctx.waitUntil(
      Promise.all([
        services.images.sweepExpired(now),
        services.imageCleanup.sweepOrphans(now),
        services.sessions.sweepExpired(now),
        services.accountTokens.sweep(now),
        services.mailer.sweep(now),
        services.analytics.prune(now),
      ]),
    );
  },
  /**
   * The queue consumer (analytics and federation have their own, below); the newsletter's and the notifications'
   * jobs (wrangler.toml [[queues.consumers]]): each message is one bounded,
   * idempotent job. A failed one is retried with a growing delay; after max_retries it goes to the
   * dead-letter queue, where it stays for a person to look at.
   */
  async queue(batch, env, ctx) {
    const services = createServices(env, ctx);
    if (batch.queue.startsWith("edge-blog-federation")) {
      await runFederationBatch(batch as unknown as MessageBatch<FederationJob>, services);
      return;
    }
    if (batch.queue.startsWith("edge-blog-analytics")) {
      await runAnalyticsBatch(batch as unknown as MessageBatch<AnalyticsHit>, services);
      return;
    }
    for (const message of batch.messages) {
      const body = message.body;
      try {
        // The import queue: one bounded batch of a job per message, then the next message.
        if ("kind" in body && body.kind === "import") {
          const { more } = await services.importRunner.runBatch(body.jobId);
          if (more) await env.IMPORT_QUEUE.send(body);
        } else if (isNotificationJob(body)) await services.notifications.run(body);
        else await services.newsletter.run(body as NewsletterJob);
        message.ack();
      } catch (err) {
        logError("queue: job failed", err, { queue: batch.queue, job: message.id, attempt: message.attempts });
        message.retry({ delaySeconds: Math.min(300, 5 * 2 ** message.attempts) });
      }
    }
  },
} satisfies ExportedHandler<Env, NewsletterJob | ImportJobMessage | NotificationJob>;

/**
 * The analytics queue's consumer: the whole batch is folded into the rollups in one D1 batch (idempotent:
 * a hit already folded is skipped), so it is acked or retried as one.
 */
async function runAnalyticsBatch(batch: MessageBatch<AnalyticsHit>, services: ReturnType<typeof createServices>) {
  try {
    await services.analytics.fold(batch.messages.map((m) => m.body).filter(isAnalyticsHit));
    batch.ackAll();
  } catch (err) {
    logError("analytics: fold failed", err, { messages: batch.messages.length });
    batch.retryAll({ delaySeconds: 10 });
  }
}

/**
 * The federation queue's consumer: fan-outs and signed deliveries (worker/services/federation/delivery.ts).
 * A failed delivery is retried with exponential backoff (30 s doubling to 12 h); after max_retries it
 * goes to the dead-letter queue, and past 48 hours it is given up.
 */
async function runFederationBatch(batch: MessageBatch<FederationJob>, services: ReturnType<typeof createServices>) {
  for (const message of batch.messages) {
    try {
      await services.federation.runJob(message.body);
      message.ack();
    } catch (err) {
      logError("federation: job failed", err, { job: message.id, attempt: message.attempts });
      message.retry({ delaySeconds: Math.min(43_200, 30 * 2 ** message.attempts) });
    }
  }
}
