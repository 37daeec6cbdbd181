import type { Env } from "#worker/env.ts";
import { logError } from "#worker/log.ts";
import type {
  AnalyticsHit,
  FederationJob,
  ImportJobMessage,
  MembersJob,
  NewsletterJob,
  NotificationJob,
} from "#worker/queues/messages.ts";
import { isAnalyticsHit } from "#worker/services/analytics/model.ts";
import type { Services } from "#worker/services/index.ts";

/**
 * Every queue this Worker consumes, by the name wrangler.toml's [[queues.consumers]] gives it, and what runs
 * a batch of it. A message is one bounded, idempotent job: acked when it ran, retried with a growing delay
 * when it failed, and moved to the queue's dead-letter queue after max_retries (wrangler.toml), where it
 * stays for a person to look at.
 */
type Consumer = (batch: MessageBatch<unknown>, services: Services, env: Env) => Promise<void>;

/** One message at a time, each acked or retried on its own, with `backoff(attempts)` seconds before a retry. */
function eachMessage<Job>(
  name: string,
  run: (job: Job, services: Services, env: Env) => Promise<unknown>,
  backoff: (attempts: number) => number,
): Consumer {
  return async (batch, services, env) => {
    for (const message of (batch as MessageBatch<Job>).messages) {
      try {
        await run(message.body, services, env);
        message.ack();
      } catch (err) {
        logError(`${name}: job failed`, err, { queue: batch.queue, job: message.id, attempt: message.attempts });
        message.retry({ delaySeconds: backoff(message.attempts) });
      }
    }
  };
}

const briefly = (attempts: number) => Math.min(300, 5 * 2 ** attempts);

export const QUEUE_CONSUMERS: Record<string, Consumer> = {
  // A post that became public: a page of confirmed subscribers per fan-out job, a few mails per send job.
  "edge-blog-newsletter": eachMessage<NewsletterJob>("newsletter", (job, s) => s.newsletter.run(job), briefly),
  // A followed writer's new post reaches a page of followers per job; the daily digest walks people the same way.
  "edge-blog-notifications": eachMessage<NotificationJob>(
    "notifications",
    (job, s) => s.notifications.run(job),
    briefly,
  ),
  // One bounded batch of a staged import per message, then the next message for the rest.
  "edge-blog-import": eachMessage<ImportJobMessage>(
    "import",
    async (job, s, env) => {
      const { more } = await s.importRunner.runBatch(job.jobId);
      if (more) await env.IMPORT_QUEUE.send(job);
    },
    briefly,
  ),
  // Fan-outs and signed deliveries to the fediverse: 30 s doubling to 12 h, given up after 48 hours
  // (worker/services/federation/delivery.ts), which wrangler.toml's max_retries = 13 reaches.
  "edge-blog-federation": eachMessage<FederationJob>(
    "federation",
    (job, s) => s.federation.runJob(job),
    (attempts) => Math.min(43_200, 30 * 2 ** attempts),
  ),
  // Stripe's events, one per message: the subscription is read again from Stripe and the member set from it.
  "edge-blog-members": eachMessage<MembersJob>("members", (job, s) => s.members.sync.run(job), briefly),
  // Page views: the whole batch is folded into the rollups in one D1 batch (a hit already folded is
  // skipped), so it is acked or retried as one.
  "edge-blog-analytics": async (batch, services) => {
    try {
      const hits = (batch as MessageBatch<AnalyticsHit>).messages.map((m) => m.body).filter(isAnalyticsHit);
      await services.analytics.fold(hits);
      batch.ackAll();
    } catch (err) {
      logError("analytics: fold failed", err, { messages: batch.messages.length });
      batch.retryAll({ delaySeconds: 10 });
    }
  },
};

export async function consumeQueue(batch: MessageBatch<unknown>, services: Services, env: Env): Promise<void> {
  const consumer = QUEUE_CONSUMERS[batch.queue];
  if (!consumer) {
    // A queue wrangler.toml routes here without a consumer in this table: keep its messages for later.
    logError("queue: no consumer", new Error(`no consumer for queue ${batch.queue}`), { queue: batch.queue });
    batch.retryAll({ delaySeconds: 300 });
    return;
  }
  await consumer(batch, services, env);
}
