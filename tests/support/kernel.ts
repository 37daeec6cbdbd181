import { env } from "cloudflare:workers";
import type { FederationJob } from "#worker/services/federation/delivery.ts";
import { createKernel, createServices } from "#worker/services/index.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import type { MembersJob, NotificationJob } from "#worker/queues/messages.ts";
import { recordingFederationQueue } from "./fediverse";
import { mailbox } from "./mail";
import { recordingQueue } from "./queue";
import { STRIPE_ENV } from "./stripe";

/**
 * The one test kernel helper: the kernel and the services a test runs against, with stand-ins at the
 * Worker's edges (a mailbox as its EMAIL binding, recording queues), as worker/services/index.ts makes them
 * for a request. Every test that needs a world of its own takes it from here.
 */

let n = 0;
/** A short name of its own on every call (titles, handles, addresses): never another test's, in any file. */
export const tag = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

/** The origin services are made for in a test (vitest.config.ts sets SITE_URL to it). */
export const TEST_ORIGIN = "https://blog.test";

/** The kernel over the pool's env, or over another D1 (a counting one: tests/support/d1-counter.ts). */
export function testKernel(d1: D1Database = env.DB): Kernel {
  return createKernel({ ...env, DB: d1 }, undefined, TEST_ORIGIN);
}

/**
 * The Worker's env with these bindings in place and a mailbox as EMAIL (`mail: false` keeps the pool's own),
 * and services over it, made afresh on each `services()` as each request makes them.
 */
export function world(bindings: Partial<Cloudflare.Env> = {}, { mail = true } = {}) {
  const box = mailbox();
  const workerEnv = mail ? box.env(bindings) : ({ ...env, ...bindings } as Cloudflare.Env);
  const services = () => createServices(workerEnv, undefined, TEST_ORIGIN);
  return { box, env: workerEnv, services };
}

/** The newsletter's queue recorded (`queue`), and its mail in the mailbox. */
export function newsletterWorld() {
  const queue = recordingQueue();
  return { ...world({ NEWSLETTER_QUEUE: queue.binding }), queue };
}

export type NewsletterWorld = ReturnType<typeof newsletterWorld>;

/** The notifications' queue recorded (`queue`), and the newsletter's (`letters`) a new post also fills. */
export function notificationWorld() {
  const queue = recordingQueue<NotificationJob>(10, "edge-blog-notifications");
  const letters = recordingQueue();
  return { ...world({ NOTIFY_QUEUE: queue.binding, NEWSLETTER_QUEUE: letters.binding }), queue, letters };
}

/** Every queue a post's outreach fills, recorded: the newsletter's, the notifications' and the federation's. */
export function outreachWorld() {
  const newsletter = recordingQueue();
  const notify = recordingQueue<NotificationJob>(10, "edge-blog-notifications");
  const federation = recordingQueue<FederationJob>(10, "edge-blog-federation");
  const w = world({
    NEWSLETTER_QUEUE: newsletter.binding,
    NOTIFY_QUEUE: notify.binding,
    FEDERATION_QUEUE: federation.binding,
  });
  return { ...w, newsletter, notify, federation };
}

/** Stripe configured (tests/support/stripe.ts's keys) and the members' queue recorded (`queue`). */
export function membersWorld() {
  const queue = recordingQueue<MembersJob>(10, "edge-blog-members");
  return { ...world({ ...STRIPE_ENV, MEMBERS_QUEUE: queue.binding }), queue };
}

/**
 * The federation's queue recorded, one set of services over it, and `drain`: every queued job run (and those
 * they queue) through that set. `mail`: the mailbox as EMAIL (else the pool's own); `keepErrors`: a job that
 * throws answers its message instead of failing the drain.
 */
export function federationWorld({ mail = false, keepErrors = false } = {}) {
  const queue = recordingFederationQueue();
  const { box, env: workerEnv, services: make } = world({ FEDERATION_QUEUE: queue.binding } as never, { mail });
  const services = make();
  const run = (job: FederationJob) => services.federation.runJob(job);
  const drain = () => queue.drain(keepErrors ? (job) => run(job).catch((e: Error) => e.message) : run);
  return { box, env: workerEnv, queue, services, drain };
}

export type FederationWorld = ReturnType<typeof federationWorld>;
