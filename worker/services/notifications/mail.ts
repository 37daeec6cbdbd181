import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { actorJoins, actorName } from "#worker/services/notifications/actor.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import type { Composed, Mailer } from "#worker/services/mail/mailer.ts";
import { signLink } from "#worker/services/signed-links.ts";
import { DEFAULT_PREFS, describe, targetOf, type NotificationKind } from "#worker/services/notifications/texts.ts";

const n = schema.notifications;
const p = schema.notificationPrefs;

/** The signed-link purpose of a notification kind's one-click unsubscribe. */
export const UNSUBSCRIBE_PURPOSE = "notification-unsubscribe";

/** Rows one mail step composes at most in one D1 batch (three statements each). */
export const MAIL_CHUNK = 25;
/** Comments and replies are mailed together once the first of them has waited this long... */
export const BATCH_WINDOW_MS = 60 * 1000;
/** ...quoting at most this many (and counting the rest). */
export const BATCH_QUOTES = 20;
/** The kinds that come in bursts (a busy thread, a remote server's many replies): batched. */
const BATCHED: NotificationKind[] = ["comment", "reply"];
/** Users one digest job covers, and lines one digest lists. */
export const DIGEST = { users: 25, lines: 20, perUser: 50 } as const;

/** A notification with what its mail needs: the recipient, their choice for its kind, its sentence. */
function mailRows(db: Db, where: ReturnType<typeof and>, limit: number) {
  return db
    .select({
      id: n.id,
      kind: n.kind,
      count: n.count,
      userId: n.userId,
      email: schema.users.email,
      verifiedAt: schema.users.emailVerifiedAt,
      actorId: n.actorId,
      actorName,
      blogId: n.blogId,
      blogTitle: schema.blogs.title,
      privateReplyId: n.privateReplyId,
      quote: sql<string | null>`coalesce(${schema.apPrivateReplies.body}, ${schema.comments.body})`.as("quote"),
      comment: p.comment,
      reply: p.reply,
      follow: p.follow,
      post: p.post,
      like: p.like,
    })
    .from(n)
    .innerJoin(schema.users, eq(schema.users.id, n.userId))
    .leftJoin(...actorJoins[0])
    .leftJoin(...actorJoins[1])
    .leftJoin(...actorJoins[2])
    .leftJoin(...actorJoins[3])
    .leftJoin(schema.comments, eq(schema.comments.id, n.commentId))
    .leftJoin(schema.blogs, eq(schema.blogs.id, n.blogId))
    .leftJoin(p, eq(p.userId, n.userId))
    .where(where)
    .orderBy(n.userId, n.createdAt)
    .limit(limit);
}

type MailRow = Awaited<ReturnType<typeof mailRows>>[number];

const choiceOf = (row: MailRow, kind: NotificationKind) => row[kind] ?? DEFAULT_PREFS[kind];

/**
 * Applies each person's email choice to their new notifications, exactly once: "instant" writes a
 * message (kept only if this call's claim of the row took: the claim and the message are one D1
 * batch), "off" (or an address never verified) marks the row done, "digest" leaves it for the daily
 * digest. A job delivered twice finds the rows claimed and mails nothing.
 */
export function createNotificationMail(k: Kernel, deps: { mailer: Mailer }) {
  const { db, origin } = k;
  const { mailer } = deps;
  const link = (path: string) => mailer.link(origin, path);
  /** A kind's one-click unsubscribe, signed for its person (the service's `unsubscribe` verifies it). */
  const unsubscribeToken = (userId: string, kind: NotificationKind) =>
    signLink(k.config.sessionSecret, UNSUBSCRIBE_PURPOSE, [userId, kind]);

  async function applyChoices(ids: string[], now = Date.now()): Promise<number> {
    let mailed = 0;
    for (let i = 0; i < ids.length; i += MAIL_CHUNK) {
      const rows = await mailRows(
        db,
        and(inArray(n.id, ids.slice(i, i + MAIL_CHUNK)), isNull(n.emailedAt)),
        MAIL_CHUNK,
      );
      const statements: BatchItem<"sqlite">[] = [];
      const composed: { at: number; message: Composed }[] = [];
      const done: string[] = [];
      for (const row of rows) {
        const choice = choiceOf(row, row.kind);
        // Left for flushBatches: one message for all that come in within BATCH_WINDOW_MS.
        if (choice === "digest" || (choice === "instant" && BATCHED.includes(row.kind))) continue;
        if (choice === "off" || !row.verifiedAt) {
          done.push(row.id);
          continue;
        }
        const text = describe(row);
        const claim = db
          .update(n)
          .set({ emailedAt: now })
          .where(and(eq(n.id, row.id), isNull(n.emailedAt)))
          .returning({ id: n.id });
        const message = mailer.compose(
          {
            kind: "notification",
            to: row.email,
            origin,
            params: { text, url: link(targetOf(row)), settingsUrl: link("/settings#notifications") },
          },
          now,
          sql`exists (select 1 from ${n} where ${n.id} = ${row.id} and ${n.emailedAt} = ${now})`,
        );
        composed.push({ at: statements.length, message });
        statements.push(claim, ...message.statements);
      }
      if (done.length)
        statements.push(
          db
            .update(n)
            .set({ emailedAt: now })
            .where(and(inArray(n.id, done), isNull(n.emailedAt))),
        );
      if (statements.length === 0) continue;
      const results = (await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
      const claimed = composed.filter((c) => (results[c.at] as unknown[]).length > 0).map((c) => c.message);
      mailed += claimed.length;
      await mailer.deliver(claimed);
    }
    return mailed;
  }

  /**
   * One page of the daily digest: up to DIGEST.users people with notifications whose email choice is
   * still open (older than `cutoff`), after `after`. Each gets one message listing the kinds they chose
   * "digest" for; every open row of theirs is then marked done (claimed in the message's batch).
   * Answers the last user of the page when there may be more.
   */
  async function digestPage(after: string, cutoff: number, now = Date.now()): Promise<string | null> {
    const people = await db
      .selectDistinct({ userId: n.userId })
      .from(n)
      .where(and(isNull(n.emailedAt), sql`${n.userId} > ${after}`, lt(n.createdAt, cutoff)))
      .orderBy(n.userId)
      .limit(DIGEST.users);
    if (people.length === 0) return null;
    const statements: BatchItem<"sqlite">[] = [];
    const composed: { at: number; message: Composed }[] = [];
    for (const { userId } of people) {
      const rows = await mailRows(
        db,
        and(eq(n.userId, userId), isNull(n.emailedAt), lt(n.createdAt, cutoff)),
        DIGEST.perUser,
      );
      if (rows.length === 0) continue;
      const ids = rows.map((r) => r.id);
      const claim = db
        .update(n)
        .set({ emailedAt: now })
        .where(and(inArray(n.id, ids), isNull(n.emailedAt)))
        .returning({ id: n.id });
      const chosen = rows.filter((r) => choiceOf(r, r.kind) === "digest");
      const first = rows[0]!;
      if (chosen.length === 0 || !first.verifiedAt) {
        statements.push(claim);
        continue;
      }
      const lines = chosen.map(describe);
      const message = mailer.compose(
        {
          kind: "notification-digest",
          to: first.email,
          origin,
          params: {
            lines: lines.slice(0, DIGEST.lines),
            more: Math.max(0, lines.length - DIGEST.lines),
            url: link("/notifications"),
            settingsUrl: link("/settings#notifications"),
          },
        },
        now,
        sql`exists (select 1 from ${n} where ${n.id} = ${first.id} and ${n.emailedAt} = ${now})`,
      );
      composed.push({ at: statements.length, message });
      statements.push(claim, ...message.statements);
    }
    if (statements.length) {
      const results = (await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
      await mailer.deliver(composed.filter((c) => (results[c.at] as unknown[]).length > 0).map((c) => c.message));
    }
    return people.length === DIGEST.users ? people[people.length - 1]!.userId : null;
  }

  /**
   * The minute cron: each person's comments and replies chosen "instant" whose first has waited
   * BATCH_WINDOW_MS go out as one message per kind, quoting them, with a one-click unsubscribe from
   * that kind (List-Unsubscribe). Claimed in the message's batch, so nothing is mailed twice.
   */
  async function flushBatches(now = Date.now()): Promise<number> {
    const people = await db
      .selectDistinct({ userId: n.userId, kind: n.kind })
      .from(n)
      .where(and(isNull(n.emailedAt), inArray(n.kind, BATCHED), lt(n.createdAt, now - BATCH_WINDOW_MS + 1)))
      .orderBy(n.userId)
      .limit(DIGEST.users);
    let mailed = 0;
    for (const { userId, kind } of people) {
      const rows = (
        await mailRows(db, and(eq(n.userId, userId), eq(n.kind, kind), isNull(n.emailedAt)), DIGEST.perUser)
      ).filter((row) => choiceOf(row, kind) === "instant");
      const first = rows[0];
      if (!first) continue;
      const ids = rows.map((r) => r.id);
      const claim = db
        .update(n)
        .set({ emailedAt: now })
        .where(and(inArray(n.id, ids), isNull(n.emailedAt)))
        .returning({ id: n.id });
      if (!first.verifiedAt) {
        await claim;
        continue;
      }
      const quotes = rows.map((row) => `${describe(row)}:\n“${(row.quote ?? "").slice(0, 500)}”`);
      const unsubscribeUrl = mailer.link(origin, "/notifications/unsubscribe", {
        token: await unsubscribeToken(userId, kind),
      });
      const message = mailer.compose(
        {
          kind: "notification-batch",
          to: first.email,
          origin,
          params: {
            subject:
              rows.length === 1
                ? describe(first)
                : `${rows.length} new ${kind === "comment" ? "comments on your posts" : "replies to your comments"}`,
            quotes: quotes.slice(0, BATCH_QUOTES),
            more: Math.max(0, quotes.length - BATCH_QUOTES),
            url: link(rows.length === 1 ? targetOf(first) : "/notifications"),
            settingsUrl: link("/settings#notifications"),
            unsubscribeUrl,
          },
          headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        },
        now,
        sql`exists (select 1 from ${n} where ${n.id} = ${first.id} and ${n.emailedAt} = ${now})`,
      );
      const results = (await db.batch([claim, ...message.statements])) as unknown[];
      if ((results[0] as unknown[]).length > 0) {
        await mailer.deliver([message]);
        mailed++;
      }
    }
    return mailed;
  }

  return { applyChoices, digestPage, flushBatches };
}
