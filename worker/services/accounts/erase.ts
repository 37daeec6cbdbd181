import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { eraseAnalytics } from "#worker/services/analytics/retention.ts";
import { postImageUrls, type ImageCleanup } from "#worker/services/images/cleanup.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** What goes when an account is deleted (by its owner or an admin): counted, erased, and told. */

type UserRow = typeof schema.users.$inferSelect;

/** Counts past this read as "more than": a count walks an index, and a confirmation need not walk a huge one. */
export const HOLDINGS_CAP = 10_000;

/** What goes with an account when it is deleted: shown in the delete confirmation, told in the goodbye mail. */
export interface Holdings {
  name: string;
  posts: number;
  comments: number;
  likes: number;
  saves: number;
  /** The most any count reaches (HOLDINGS_CAP): a count equal to it means "at least". */
  cap: number;
}

/** An account's holdings in one statement, each count capped; undefined when there is no such account. */
export async function readHoldings(db: Db, id: string): Promise<Holdings | undefined> {
  const capped = (table: string, column: string) =>
    sql<number>`(select count(*) from (select 1 from ${sql.raw(table)} where ${sql.raw(column)} = ${id} limit ${HOLDINGS_CAP}))`;
  const row = await db
    .select({
      name: schema.users.name,
      posts: capped("blogs", "author_id"),
      comments: capped("comments", "user_id"),
      likes: capped("blog_likes", "user_id"),
      saves: capped("saved_blogs", "user_id"),
    })
    .from(schema.users)
    .where(eq(schema.users.id, id))
    .get();
  return row && { ...row, cap: HOLDINGS_CAP };
}

/** What account deletion tells the fediverse (worker/services/federation/service.ts accountDeletion). */
export interface AccountFederation {
  /** Before the delete: keeps the account's actor (its key) apart from the account; answers whether it had one. */
  retire(userId: string): Promise<boolean>;
  /** The delete was refused: the actor is the account's again. */
  restore(userId: string): Promise<void>;
  /** After the delete: Delete(Tombstone) of each federated post and Delete(actor), through the queue. */
  announce(userId: string): Promise<void>;
}

/**
 * Deletes an account and, through the foreign keys, everything that is theirs (docs/decisions/001):
 * sessions, profile, passkeys, saved entries, likes, comments and their posts; then purges and lets
 * their images go. `guard` adds a condition checked in the same statement (the last-admin rule).
 * Answers how many rows went (0 when the guard refused).
 */
export async function eraseAccount(
  k: Kernel,
  deps: { imageCleanup: Pick<ImageCleanup, "release">; federation?: AccountFederation },
  row: UserRow,
  guard?: ReturnType<typeof sql>,
): Promise<number> {
  const { db, purge } = k;
  const { federation } = deps;
  // Their fediverse actor outlives the account (to sign the Delete its followers get), unless refused.
  const retired = (await federation?.retire(row.id)) ?? false;
  // What their account showed or uploaded, read before the foreign keys take their records away.
  const [posts, uploads, postIds, membership] = await Promise.all([
    postImageUrls(db, eq(schema.blogs.authorId, row.id)),
    db.select({ key: schema.images.key }).from(schema.images).where(eq(schema.images.ownerId, row.id)),
    db.select({ id: schema.blogs.id }).from(schema.blogs).where(eq(schema.blogs.authorId, row.id)),
    db.query.members.findFirst({
      where: eq(schema.members.userId, row.id),
      columns: { stripeCustomerId: true, stripeSubscriptionId: true },
    }),
  ]);
  const deleted = await db
    .delete(schema.users)
    .where(guard ? and(eq(schema.users.id, row.id), guard) : eq(schema.users.id, row.id))
    .returning({ id: schema.users.id });
  if (deleted.length === 0) {
    if (retired) await federation?.restore(row.id);
    return 0;
  }
  // First, before any step that may fail: their Stripe Customer stops charging them, and the MRR history loses
  // what they paid (members/events.ts). The account is gone from here on, whatever follows.
  await k.events.emit("account.erased", {
    userId: row.id,
    stripeCustomerId: membership?.stripeCustomerId ?? null,
    stripeSubscriptionId: membership?.stripeSubscriptionId ?? null,
  });
  if (retired) await federation?.announce(row.id);
  // Their posts' analytics go with them (rollups are keyed by text, not by foreign keys).
  await eraseAnalytics(
    db,
    row.id,
    postIds.map((p) => p.id),
  );
  await purge({ kind: "user.removed" });
  await deps.imageCleanup.release([row.photoUrl, ...posts, ...uploads.map((u) => `/images/${u.key}`)]);
  return deleted.length;
}

/**
 * The last message to the address, after the account is gone (a refused delete sends nothing). The
 * outbox keeps no tie to the account, so the row outlives it and the cron retries a failed send.
 */
export async function mailGoodbye(
  db: Db,
  mailer: Mailer,
  row: UserRow,
  held: Holdings,
  origin?: string | null,
): Promise<void> {
  const subscribed = await db.query.newsletterSubscriptions.findFirst({
    where: and(
      eq(schema.newsletterSubscriptions.email, row.email),
      eq(schema.newsletterSubscriptions.state, "confirmed"),
    ),
    columns: { id: true },
  });
  await mailer.send({
    kind: "account-deleted",
    to: row.email,
    params: { name: row.name, email: row.email, counts: held, newsletter: Boolean(subscribed) },
    origin,
  });
}
