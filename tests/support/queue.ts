import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import worker from "#worker/index.ts";
import type { NewsletterJob } from "#worker/services/newsletter/model.ts";

/**
 * A stand-in for the newsletter queue's producer (the edge between the Worker and Cloudflare Queues):
 * it keeps what was sent, and `drain` hands it to the Worker's real queue handler in batches the way
 * the platform does, so a test sees every job run and can deliver a batch twice (a forced retry).
 */
export function recordingQueue<Job = NewsletterJob>(batchSize = 10, queueName = "edge-blog-newsletter") {
  let pending: Job[] = [];
  let seq = 0;
  const binding = {
    async send(body: Job) {
      pending.push(structuredClone(body));
    },
    async sendBatch(messages: Iterable<MessageSendRequest<Job>>) {
      for (const m of messages) pending.push(structuredClone(m.body));
    },
  } as unknown as Queue<Job>;

  /** Runs one batch of messages through the Worker's queue handler; answers acked and retried ids. */
  async function deliver(env: Cloudflare.Env, jobs: Job[], attempts = 1) {
    const messages = jobs.map((body) => ({
      id: `m${seq++}`,
      timestamp: new Date(),
      attempts,
      body,
    }));
    const batch = createMessageBatch<Job>(queueName, messages);
    const ctx = createExecutionContext();
    await worker.queue!(batch as never, env as never, ctx);
    return getQueueResult(batch, ctx);
  }

  return {
    binding,
    get pending() {
      return pending;
    },
    deliver,
    /** Takes the next batch off the queue (as the platform would hand it to the consumer). */
    take(): Job[] {
      const batch = pending.slice(0, batchSize);
      pending = pending.slice(batchSize);
      return batch;
    },
    /**
     * Delivers batches until the queue is empty; `twice` delivers every batch a second time. Answers
     * every job delivered, in order.
     */
    async drain(env: Cloudflare.Env, { twice = false } = {}) {
      const done: Job[] = [];
      while (pending.length > 0) {
        const jobs = this.take();
        const result = await deliver(env, jobs);
        if (result.retryMessages.length > 0 || result.retryBatch.retry)
          throw new Error(`jobs were retried: ${JSON.stringify(result)}`);
        if (twice) await deliver(env, jobs, 2);
        done.push(...jobs);
      }
      return done;
    },
  };
}
