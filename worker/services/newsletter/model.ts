import { z } from "zod";
import type { schema } from "#worker/db.ts";
import { emailField } from "#worker/services/shared/validation.ts";
import { SITE_SETTINGS, type SiteSettingValue } from "#worker/services/site-settings.ts";

export const SUBSCRIBER_STATES = ["pending", "confirmed", "unsubscribed"] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

/** A subscriber as the admin pages see it. */
export interface Subscriber {
  _id: string;
  email: string;
  state: SubscriberState;
  /** ISO 8601, when the address was first given. */
  created_at: string;
  confirmed_at: string | null;
  /**
   * ISO 8601, when they subscribed: the one time every page shows for a subscriber (their confirmation; a
   * confirmed row from before confirmations were timed, its start). Null while pending or once unsubscribed.
   */
  subscribed_at: string | null;
}

/** One post's newsletter send, as the admin Newsletter page shows it. */
export interface NewsletterSend {
  blog_id: string;
  title: string;
  started_at: string;
  completed: boolean;
  /** Subscribers the fan-out reached whose message is not out yet. */
  queued: number;
  sent: number;
  /** Messages whose last try failed (the outbox keeps retrying them with backoff). */
  failed: number;
  /** Who it went to, fixed when it started: "everyone", "free" (all but paid and comped members) or "paid". */
  audience: NewsletterAudience;
}

export type { NewsletterJob } from "#worker/queues/messages.ts";

/** Batch settings of the fan-out (README "Newsletter"; `npm run bench:newsletter` prints them). */
export const FANOUT = {
  /** Confirmed subscribers one fan-out job walks before queuing the next one. */
  page: 500,
  /** Subscribers one send job mails (two D1 statements each, in one batch). */
  chunk: 25,
  /** Messages per sendBatch call (the Queues limit is 100). */
  sendBatch: 100,
} as const;

export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const SUBSCRIBERS_PAGE = 25;
export const SENDS_PAGE = 10;
/** An import takes at most this many rows and this many bytes. */
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_MAX_BYTES = 512 * 1024;

export const NEWSLETTER_TEXTS = {
  invalidLink: "This link is not valid. Check that you copied all of it.",
  expiredLink: "This confirmation link has expired. Subscribe again to get a new one.",
} as const;

export const subscribeInput = z.object({ email: emailField() });

/** What a post's newsletter mail carries: the teaser (title, description, a link) or the whole post. */
export type NewsletterContent = SiteSettingValue<"newsletter_content">;
export const NEWSLETTER_CONTENT = SITE_SETTINGS.newsletter_content.values;

/** The admin's choice of the site's default (the Newsletter page's form field `content`). */
export const contentDefaultInput = z.object({
  content: z.enum(NEWSLETTER_CONTENT, { error: 'What subscribers get must be "teaser" or "full".' }),
});

/** Who a send mails: everyone, the free subscribers (all but paid and comped members) or the paid ones. */
export type NewsletterAudience = SiteSettingValue<"newsletter_audience">;
export const NEWSLETTER_AUDIENCES = SITE_SETTINGS.newsletter_audience.values;

/** The admin's choice of the site's default audience (the Newsletter page's form field `audience`). */
export const audienceDefaultInput = z.object({
  audience: z.enum(NEWSLETTER_AUDIENCES, { error: 'Who gets new posts must be "everyone", "free" or "paid".' }),
});

/** The choice a mail is composed with: the post's own, else the site's default. */
export const effectiveContent = (post: NewsletterContent | "", site: NewsletterContent): NewsletterContent =>
  post || site;

/** Subscriptions per client address and hour: enough for a household, too few to fill the table. */
export const SUBSCRIPTIONS_PER_HOUR = 20;
/**
 * Confirmation mails one address gets in an hour, whoever asks and from wherever (as reset mails):
 * past it the form answers as always and sends nothing, so nobody can fill a stranger's inbox.
 */
export const CONFIRM_MAILS_PER_HOUR = 3;

export const CONFIRM = "newsletter-confirm";
export const UNSUBSCRIBE = "newsletter-unsubscribe";

export type SubscriptionRow = typeof schema.newsletterSubscriptions.$inferSelect;

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
export const toSubscriber = (row: SubscriptionRow): Subscriber => ({
  _id: row.id,
  email: row.email,
  state: row.state,
  created_at: new Date(row.createdAt).toISOString(),
  confirmed_at: iso(row.confirmedAt),
  subscribed_at: row.state === "confirmed" ? iso(row.confirmedAt ?? row.createdAt) : null,
});
