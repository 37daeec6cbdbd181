import type { WriteEvent } from "#worker/cache/tags.ts";
import type { Config } from "#worker/config.ts";
import type { Db } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import type { Events } from "#worker/events/index.ts";
import type { RateLimitService } from "#worker/services/rate-limit.ts";

/**
 * The kernel: what every service of one request (or one cron run, or one queue batch) shares. Every service
 * factory takes it first, and at most one object of the services it calls: `createX(kernel, { mailer })`.
 * Nothing here is a service's own: a service reads the database, purges what it changed, emits what it made
 * true and counts its limits through these, and nothing else is handed to it as a loose callback.
 * Types only, so every service may import it without an import circle: worker/services/index.ts builds it
 * (`createKernel`), once per createServices.
 */
export interface Kernel {
  /** This request's Drizzle over D1 (the D1 session's, for a page or an /api call). */
  db: Db;
  /** The bindings: queues, R2, Email, the view counters. Variables are read through `config`. */
  env: Env;
  /** The environment parsed once (worker/config.ts): read on first use. */
  readonly config: Config;
  /** Every write purges what it changed from the edge cache (worker/cache/purge.ts, the tags of worker/cache/tags.ts). */
  purge: (event: WriteEvent) => Promise<void>;
  /** The domain events (worker/events/index.ts): a write emits what it made true; subscribers are registered once. */
  events: Events;
  /** Fixed-window limits in D1 (worker/services/rate-limit.ts). */
  rateLimit: RateLimitService;
  /** The origin of the request being served, if any: links in mail follow it when SITE_URL is unset. */
  origin: string | null;
  /** Work after the answer (the request's waitUntil); without a request context it simply runs. */
  defer(work: Promise<unknown>): void;
}
