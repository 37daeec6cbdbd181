import type { CreatedComment } from "#worker/services/comments/service.ts";
import type { Actor } from "#worker/services/shared/policy.ts";

/**
 * The domain events: what happened, named once, with what a subscriber needs to know. Services emit them
 * (through the callbacks the composition root, worker/services/index.ts, hands them); the subscribers are
 * registered beside their own services (newsletter/events.ts, notifications/events.ts, federation/events.ts).
 * The edge cache is purged by the write events of worker/cache/tags.ts, inside each write.
 */
export interface DomainEvents {
  /** A post became public (published now, or its scheduled minute came) and its writer is verified. */
  "post.published": { blogId: string };
  /** A post was created, edited, restored or deleted (what the fediverse mirrors); its writer is verified. */
  "post.changed": { blogId: string };
  /** A comment or reply was added, here or from the fediverse. */
  "comment.created": CreatedComment;
  /** A reply from the fediverse addressed to the writer alone: private, never a comment. */
  "reply.private": { id: string; userId: string; blogId: string };
  /** Someone liked a post. */
  "post.liked": { actor: Actor; blogId: string };
  /** Someone followed a writer. */
  "user.followed": { actor: Actor; writerId: string };
  /** A reader became a paying member (Stripe says their subscription is active or trialing). */
  "member.paid": { userId: string; tierId: string | null };
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
