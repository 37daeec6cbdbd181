/**
 * The shapes of the messages each queue carries (wrangler.toml [[queues.producers]]). They live here, below
 * both the environment (worker/env.ts types its queue bindings with them) and the services that send and
 * consume them, so neither side imports the other. This module imports nothing.
 */

/** One counted read on its way through the queue: no address, no agent, only what the rollups need. */
export interface AnalyticsHit {
  kind: "analytics-hit";
  /** Random per hit: a message delivered twice is folded once. */
  id: string;
  /** UTC day (YYYY-MM-DD) and Unix minute of the read. */
  day: string;
  minute: number;
  /** The post read, when the page is one (resolved to its writer when folded). */
  post: string | null;
  source: string;
  /** The referring host when the source is another site (folding may find it is a known fediverse server). */
  refHost: string | null;
  country: string;
  device: string;
  browser: string;
  /** SHA-256(day's salt, address, agent, site), hex: the unique visitor of the day. */
  visitor: string;
}

/**
 * Background work of the federation queue (wrangler.toml): a fan-out job reads a page of distinct inboxes
 * (shared inboxes first: one delivery per server, however many followers it has) and queues one delivery
 * job per inbox; a delivery job POSTs the signed activity once; an inbox job acts on a received activity.
 */
export type FederationJob =
  | {
      kind: "fanout";
      /** The activity, serialised once. */
      activity: string;
      /** The local actor whose key signs it. */
      signer: string;
      keyId: string;
      /** The local actors whose followers receive it (their inboxes deduplicated). */
      audiences: string[];
      /** Inboxes already given to delivery jobs, in order: the next page starts after this one. */
      after?: string;
      /** Inboxes that must not receive it (they got another activity for the same post). */
      except?: string[];
      firstAt: number;
    }
  | { kind: "deliver"; activity: string; signer: string; keyId: string; inbox: string; firstAt: number }
  /**
   * An activity an inbox accepted (signature verified, not blocked, recorded in ap_inbox, where its body
   * waits): the consumer runs its handler once.
   */
  | {
      kind: "inbox";
      authorId: string;
      activityId: string;
      /**
       * The site's origin where the activity was received. Without SITE_URL a consumer has no request to
       * take it from, and would read the activity's addresses (a reply's post, a Follow's actor) as another
       * site's. Absent in jobs queued before it was recorded.
       */
      origin?: string;
    };

/** One queue message: run the next batch of this job. */
export interface ImportJobMessage {
  kind: "import";
  jobId: string;
}

/**
 * Work on the newsletter queue (wrangler.toml [[queues]]). A fan-out walks one page of confirmed
 * subscribers after `after` and queues their sends; a send mails a few of them. Both are idempotent.
 */
export type NewsletterJob =
  | { kind: "fanout"; blogId: string; after: string; origin: string | null }
  | { kind: "send"; blogId: string; ids: string[]; origin: string | null };

/** Work on the notifications queue (wrangler.toml): a new post's fan-out to followers, the daily digest. */
export type NotificationJob =
  | { kind: "notify-post"; blogId: string; after: string; origin: string | null }
  | { kind: "digest"; after: string; cutoff: number; origin: string | null };

/**
 * Work on the members queue (wrangler.toml): one Stripe event the webhook accepted (recorded once in
 * stripe_events), or a deleted account's subscription to cancel. The consumer reads the subscription again from Stripe and sets the member's state from it,
 * so a job run twice, or events that arrive out of order, end in the same state.
 */
export type MembersJob =
  | { kind: "stripe-event"; eventId: string }
  /**
   * A deleted account's Stripe Customer deleted (which cancels every subscription of it at once), or one
   * subscription cancelled (no Customer known, or a live subscription of an account that is gone). Already
   * deleted or cancelled at Stripe: nothing to do.
   */
  | { kind: "cancel-subscription"; subscriptionId: string | null; customerId?: string | null };
