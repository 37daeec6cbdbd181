import type {
  AnalyticsHit,
  FederationJob,
  ImportJobMessage,
  MembersJob,
  NewsletterJob,
  NotificationJob,
} from "#worker/queues/messages.ts";
import type { ViewCounter } from "#worker/views/counter.ts";

/** Bindings and configuration the Worker receives (wrangler.toml, .dev.vars, secrets). */
export interface Env {
  DB: D1Database;
  IMAGES: R2Bucket;
  /** Cloudflare Images: makes the WebP width variants of stored images. */
  IMAGE_TRANSFORMS: ImagesBinding;
  ASSETS?: Fetcher;
  /** View counters (worker/views/counter.ts). */
  VIEWS: DurableObjectNamespace<ViewCounter>;
  /** Signs session JWTs (HS256). At least 32 characters. */
  SESSION_SECRET?: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** Comma-separated emails that become admins once the address is verified (worker/services/accounts/roles.ts). */
  ADMIN_EMAILS?: string;
  /** The site owner's name, shown in the footer's copyright line. */
  OWNER_NAME?: string;
  SITE_NAME?: string;
  /** Cloudflare Email Service ([[send_email]] in wrangler.toml); only worker/services/mail/mailer.ts uses it. */
  EMAIL: SendEmail;
  /** The address mail comes from, on a domain onboarded to Email Service (README, "Mail"). */
  MAIL_FROM?: string;
  /** The site's public origin (https://blog.example.com): links in mail point there. */
  SITE_URL?: string;
  /** The newsletter fan-out queue (wrangler.toml [[queues.producers]]); consumed by this Worker. */
  NEWSLETTER_QUEUE: Queue<NewsletterJob>;
  /** The notifications queue (a new post's fan-out to followers, the daily digest); consumed by this Worker. */
  NOTIFY_QUEUE: Queue<NotificationJob>;
  /** ActivityPub deliveries (worker/services/federation/delivery.ts); consumed by this Worker. */
  FEDERATION_QUEUE?: Queue<FederationJob>;
  /** The site actor's handle (`@site@host` by default). */
  AP_SITE_HANDLE?: string;
  /**
   * "true" only in tests and the local two-instance run: remote fetches and deliveries may then use
   * http and reach loopback or private addresses. Never set it in production.
   */
  FEDERATION_ALLOW_PRIVATE?: string;
  /** The import queue (wrangler.toml): each message runs one bounded batch of an import job. */
  IMPORT_QUEUE: Queue<ImportJobMessage>;
  /** "true" lets imports fetch images from private and loopback hosts: local runs only, never production. */
  IMPORT_ALLOW_PRIVATE_HOSTS?: string;
  /** Analytics hits (worker/services/analytics/): the beacon sends, this Worker folds them into D1 rollups. */
  ANALYTICS_QUEUE?: Queue<AnalyticsHit>;
  /** Days of analytics rollups kept (730 when unset); the hourly cron prunes older days. */
  ANALYTICS_RETENTION_DAYS?: string;
  /** "true" opens POST /api/analytics/bench (synthetic hits straight to the queue): `npm run bench:analytics` only. */
  ANALYTICS_BENCH_HOOKS?: string;
  /** Paid memberships (README "Paid memberships"): secrets, set with `wrangler secret put`; unset: off. */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** A local Stripe stand-in's origin (tests, e2e); unset: Stripe's own API. */
  STRIPE_API_BASE?: string;
  /** Stripe's webhook events, acted on by this Worker's consumer (worker/services/members/sync.ts). */
  MEMBERS_QUEUE?: Queue<MembersJob>;
}
