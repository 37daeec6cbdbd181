import type { Actor } from "#worker/services/shared/policy.ts";

/** What a new comment is: who to tell (notifications) reads this, as the one place comments are made. */
export interface CreatedComment {
  insertedId: string;
  blogId: string;
  /** The top comment this reply answers, or null for a top comment. */
  parentId: string | null;
  /** Who wrote it. */
  userId: string;
}

/**
 * The domain events: what happened, named once, with what a subscriber needs to know. The write that made
 * it true emits it, right after its batch, on the request's hub (`kernel.events`, worker/services/kernel.ts),
 * and decides there whether it is true (a verified writer, a visible post). The subscribers sit beside their
 * own services (newsletter/events.ts, notifications/events.ts, federation/events.ts, members/events.ts) and
 * are registered once by the composition root, worker/services/index.ts, which emits nothing itself
 * (scripts/check-events.mjs: every event has an emitter and a subscriber; scripts/check-kernel.mjs).
 * The edge cache is purged by the write events of worker/cache/tags.ts, inside each write.
 */
export interface DomainEvents {
  /**
   * A post became public (published now, or its scheduled minute came) and its writer is verified.
   * Emitted by blogs/writing.ts (create), blogs/revisions.ts (an edit that publishes) and blogs/publisher.ts.
   */
  "post.published": { blogId: string };
  /**
   * A post was created, edited, restored or deleted (what the fediverse mirrors); its writer is verified,
   * or the post is gone. Emitted by the same writes and by blogs/service.ts (remove).
   */
  "post.changed": { blogId: string };
  /** A comment or reply was added, here (comments/service.ts) or from the fediverse (federation/replies.ts). */
  "comment.created": CreatedComment;
  /** A reply from the fediverse addressed to the writer alone: private, never a comment (federation/replies.ts). */
  "reply.private": { id: string; userId: string; blogId: string };
  /** Someone liked a post (likes.ts). */
  "post.liked": { actor: Actor; blogId: string };
  /** Someone followed a writer (follows.ts). */
  "user.followed": { actor: Actor; writerId: string };
  /** A reader became a paying member: Stripe says their subscription is active or trialing (members/sync.ts). */
  "member.paid": { userId: string; tierId: string | null };
  /**
   * An account was deleted (accounts/erase.ts): what was theirs went with it, their membership row too. Their
   * Stripe Customer (every subscription of it) must stop charging them, and the MRR history lose what they paid.
   */
  "account.erased": { userId: string; stripeCustomerId: string | null; stripeSubscriptionId: string | null };
}

export type EventName = keyof DomainEvents;
export type Subscriber<E extends EventName> = (payload: DomainEvents[E]) => Promise<unknown> | unknown;
/** A service's subscriptions: for each event it listens to, what it does. */
export type Subscriptions = { [E in EventName]?: Subscriber<E> };

export interface Events {
  subscribe(subscriptions: Subscriptions): void;
  /** Runs every subscriber of `name` and waits for them; a subscriber that must never fail the write catches its own errors. */
  emit<E extends EventName>(name: E, payload: DomainEvents[E]): Promise<void>;
}

export function createEvents(): Events {
  const subscribers: { [E in EventName]?: Subscriber<E>[] } = {};
  return {
    subscribe(subscriptions) {
      for (const name of Object.keys(subscriptions) as EventName[]) {
        const list = (subscribers[name] ??= []) as Subscriber<EventName>[];
        list.push(subscriptions[name] as Subscriber<EventName>);
      }
    },
    async emit(name, payload) {
      const list = (subscribers[name] ?? []) as Subscriber<typeof name>[];
      await Promise.all(list.map((subscriber) => subscriber(payload)));
    },
  };
}
