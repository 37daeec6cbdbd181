import type { ServerBuild } from "@remix-run/cloudflare";
// The Remix server build exists only after `npm run build` (remix vite:build), so the type
// checker, which runs first, cannot see it.
// Not @ts-expect-error: once a build exists the import resolves, and an unused expect-error fails.
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- the reason is given above
// @ts-ignore
import * as build from "../build/server";
import { createApp } from "#worker/app.ts";
import type { Env } from "#worker/env.ts";
import { serve } from "#worker/serve.ts";
import { createServices } from "#worker/services/index.ts";
import { createDb } from "#worker/db.ts";
import { backgroundOrigin } from "#worker/services/mail/origin.ts";
import { logError } from "#worker/log.ts";
import { consumeQueue } from "#worker/queues/consumers.ts";

export { ViewCounter } from "#worker/views/counter.ts";

const app = createApp(build as unknown as ServerBuild);

/**
 * wrangler.toml's crons, named by what they run. Every minute: due posts published, mail retried, stalled
 * fan-outs and imports resumed, batched comment mail sent. Hourly: the sweeps (expired images, orphaned
 * files, sessions, tokens, sent mail, old analytics, received fediverse activities, ended comps). Daily at 08:00 UTC: the notification digest.
 */
export const CRONS = {
  publishAndRetry: "* * * * *",
  sweeps: "17 * * * *",
  dailyDigest: "0 8 * * *",
} as const;

export default {
  fetch: (request, env, ctx) => serve(app, request, env, ctx),
  async scheduled(controller, env, ctx) {
    const services = createServices(env, ctx, await backgroundOrigin(createDb(env.DB), env));
    const now = Date.now();
    switch (controller.cron) {
      case CRONS.publishAndRetry:
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
      case CRONS.dailyDigest:
        ctx.waitUntil(services.notifications.startDigest(now));
        return;
      case CRONS.sweeps:
        ctx.waitUntil(
          Promise.all([
            services.images.sweepExpired(now),
            services.imageCleanup.sweepOrphans(now),
            services.sessions.sweepExpired(now),
            services.accountTokens.sweep(now),
            services.mailer.sweep(now),
            services.analytics.prune(now),
            services.federation.sweep(now),
            // Comps whose end has come: the stored status the admin's list and counts read.
            services.members.admin.sweepComps(now),
          ]),
        );
        return;
      default:
        logError("cron: unknown schedule", new Error(`no work for cron ${controller.cron}`));
    }
  },
  /** Each queue's batches go to its consumer in worker/queues/consumers.ts, looked up by the queue's name. */
  async queue(batch, env, ctx) {
    await consumeQueue(batch, createServices(env, ctx, await backgroundOrigin(createDb(env.DB), env)), env);
  },
} satisfies ExportedHandler<Env, unknown>;
