import { configOf } from "#worker/config.ts";
import { and, eq, inArray, isNotNull, isNull, lt, lte, not, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { renderMail } from "#worker/services/mail/layout.tsx";
import { MAIL_TEMPLATES, type MailKind, type MailParams } from "#worker/services/mail/templates.ts";
import { log, logError } from "#worker/log.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** How the outbox retries (docs/decisions/019-mail-outbox-and-tokens.md). */
export const OUTBOX = {
  /** Messages one cron run sends at most: a run stays short whatever piled up while mail was down. */
  batch: 25,
  /** Messages handed to Email Service at the same time. */
  concurrency: 5,
  /** Tries before a message is given up on (it stays, with its last error, for a person to look at). */
  maxAttempts: 10,
  /** Waits after the 1st, 2nd, ... failure double from this, up to `maxDelayMs`. */
  firstDelayMs: 60_000,
  maxDelayMs: 6 * 60 * 60 * 1000,
  /** While one request or cron run is sending a message, no other picks it up. */
  leaseMs: 5 * 60 * 1000,
  /** A send that has not answered by then counts as failed (and is tried again later). */
  sendTimeoutMs: 10_000,
  /** Sent messages are kept (without their bodies) this long, then deleted by the hourly sweep. */
  keepSentMs: 30 * 24 * 60 * 60 * 1000,
} as const;

/** The wait before try number `attempts + 1`, after `attempts` failures. */
export const backoffMs = (attempts: number) =>
  Math.min(OUTBOX.firstDelayMs * 2 ** Math.max(0, attempts - 1), OUTBOX.maxDelayMs);

/**
 * The origin links in mail point to: SITE_URL when set (production must set it: a link must never
 * follow a Host header), else the origin of the request that caused the message (local development
 * on any port), or in background work the remembered one (origin.ts). localhost only when none is known.
 */
export function siteOrigin(env: Env, requestOrigin?: string | null): string {
  const configured = configOf(env).siteUrl;
  if (configured) return configured;
  if (requestOrigin) return new URL(requestOrigin).origin;
  return "http://localhost:8787";
}

export interface MailRequest<K extends MailKind> {
  /** The outbox id, when the caller needs it before composing (a claim that names the message). */
  id?: string;
  kind: K;
  to: string;
  params: MailParams<K>;
  /** Origin of the request that causes it (see siteOrigin). */
  origin?: string | null;
  /** When the message stops being worth sending (its link expired). */
  expiresAt?: number;
  /** Extra headers (List-Unsubscribe on newsletter mail); Email Service accepts a known set and X- ones. */
  headers?: Record<string, string>;
}

type OutboxRow = typeof schema.mailOutbox.$inferSelect;

/** A message written into the outbox by `statements`, to be handed to `deliver` once that ran. */
export interface Composed {
  id: string;
  row: OutboxRow;
  /** Write it (and, with a guard, drop it again unless the guard holds): run them in the change's batch. */
  statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
}

/**
 * Links follow `k.origin` when a caller has no request origin of its own (a cron run or a queue batch without
 * SITE_URL: the origin the site was last written to through, worker/services/mail/origin.ts).
 */
export function createMailer(k: Kernel) {
  const { db, env } = k;
  const fallbackOrigin = k.origin;
  const o = schema.mailOutbox;
  const siteName = configOf(env).siteName;

  async function sendOne(
    row: Pick<OutboxRow, "id" | "toAddress" | "subject" | "text" | "html" | "headers">,
  ): Promise<void> {
    const from = configOf(env).mailFrom;
    if (!from) throw new Error("MAIL_FROM is not set: the site has no sender address");
    if (!env.EMAIL) throw new Error("the EMAIL binding is missing ([[send_email]] in wrangler.toml)");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the mail service did not answer in time")), OUTBOX.sendTimeoutMs);
    });
    try {
      await Promise.race([
        env.EMAIL.send({
          from: { email: from, name: siteName },
          to: row.toAddress,
          subject: row.subject,
          text: row.text,
          html: row.html,
          // Email Service accepts X- headers; this one ties a delivered message to its outbox row and
          // keeps Gmail from threading separate messages with the same subject.
          headers: { ...(JSON.parse(row.headers || "{}") as Record<string, string>), "X-Entity-Ref-ID": row.id },
        }),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Sends rows this caller holds the lease on, a few at a time, and records every outcome in one D1
   * batch (a newsletter job sends dozens: one round trip each would dominate). Answers how many went out.
   */
  async function sendRows(rows: OutboxRow[], now: number): Promise<number> {
    const outcomes: { row: OutboxRow; error: string | null }[] = [];
    for (let i = 0; i < rows.length; i += OUTBOX.concurrency) {
      await Promise.all(
        rows.slice(i, i + OUTBOX.concurrency).map(async (row) => {
          try {
            await sendOne(row);
            outcomes.push({ row, error: null });
          } catch (err) {
            const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
            log("warn", "mail: not sent", { kind: row.kind, outbox: row.id, attempt: row.attempts + 1, error });
            outcomes.push({ row, error });
          }
        }),
      );
    }
    const updates = outcomes.map(({ row, error }) => {
      const attempts = row.attempts + 1;
      return error === null
        ? // Sent: the body (which may hold a link) is not kept.
          db
            .update(o)
            .set({ sentAt: Date.now(), attempts, lastError: null, text: "", html: "" })
            .where(eq(o.id, row.id))
        : db
            .update(o)
            .set({ attempts, lastError: error, nextAttemptAt: now + backoffMs(attempts) })
            .where(eq(o.id, row.id));
    });
    if (updates.length > 0) {
      try {
        await db.batch(updates as [(typeof updates)[number], ...typeof updates]);
      } catch (recordErr) {
        // The lease runs out and a later run tries again; the action that queued it still succeeds.
        logError("mail: could not record the outcome of sends", recordErr);
      }
    }
    return outcomes.filter((x) => x.error === null).length;
  }

  return {
    siteName,

    /** An absolute link on the site's origin. */
    link(origin: string | null | undefined, path: string, query: Record<string, string> = {}): string {
      const url = new URL(path, siteOrigin(env, origin ?? fallbackOrigin));
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
      return url.toString();
    },

    /**
     * Renders a message and makes the statement that writes it into the outbox: run it in the same
     * batch as the change it reports, then `deliver` it. The lease keeps the cron away meanwhile.
     */
    compose<K extends MailKind>(request: MailRequest<K>, now = Date.now(), guard?: SQL): Composed {
      const template = MAIL_TEMPLATES[request.kind] as (
        site: string,
        p: MailParams<K>,
      ) => ReturnType<(typeof MAIL_TEMPLATES)[K]>;
      const content = template(siteName, request.params);
      const { text, html } = renderMail(content, {
        siteName,
        origin: siteOrigin(env, request.origin ?? fallbackOrigin),
        to: request.to,
      });
      const headers = JSON.stringify(request.headers ?? {});
      const row: OutboxRow = {
        id: request.id ?? newId(),
        kind: request.kind,
        toAddress: request.to,
        subject: content.subject,
        text,
        html,
        headers,
        attempts: 0,
        lastError: null,
        nextAttemptAt: now + OUTBOX.leaseMs,
        expiresAt: request.expiresAt ?? null,
        sentAt: null,
        createdAt: now,
      };
      // With a guard (a token's claim, say), the message stays only if the guard holds when the batch
      // runs: a change that did not happen sends no message about it.
      const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = guard
        ? [db.insert(o).values(row), db.delete(o).where(and(eq(o.id, row.id), not(guard)))]
        : [db.insert(o).values(row)];
      return { id: row.id, row, statements };
    },

    /**
     * Tries to send messages just written by `compose`. Never throws: a message that cannot go now
     * stays in the outbox for the cron. Answers whether all of them went out.
     */
    async deliver(composed: Composed[], now = Date.now()): Promise<boolean> {
      try {
        return (
          (await sendRows(
            composed.map((c) => c.row),
            now,
          )) === composed.length
        );
      } catch (err) {
        logError("mail: deliver failed", err);
        return false;
      }
    },

    /** Queues and sends one message on its own (no change to batch it with). */
    async send<K extends MailKind>(request: MailRequest<K>, now = Date.now()): Promise<boolean> {
      const composed = this.compose(request, now);
      await db.batch(composed.statements);
      return this.deliver([composed], now);
    },

    /**
     * Messages of these kinds to this address that have not gone out yet, withdrawn (a statement to batch with
     * the change that makes them wrong: a subscriber an admin removed gets nothing more). A message already
     * handed to Email Service cannot be called back.
     */
    withdraw(kinds: MailKind[], to: string): BatchItem<"sqlite"> {
      return db.delete(o).where(and(isNull(o.sentAt), eq(o.toAddress, to), inArray(o.kind, kinds)));
    },

    /**
     * The cron's retry: takes a bounded batch of due messages (a lease, so overlapping runs never
     * send one twice), sends them, records each outcome. Answers how many were sent.
     */
    async retryDue(now = Date.now()): Promise<number> {
      const due = db
        .select({ id: o.id })
        .from(o)
        .where(
          and(
            isNull(o.sentAt),
            lte(o.nextAttemptAt, now),
            lt(o.attempts, OUTBOX.maxAttempts),
            or(isNull(o.expiresAt), sql`${o.expiresAt} > ${now}`),
          ),
        )
        .orderBy(o.nextAttemptAt)
        .limit(OUTBOX.batch);
      const claimed = await db
        .update(o)
        .set({ nextAttemptAt: now + OUTBOX.leaseMs })
        .where(and(inArray(o.id, due), isNull(o.sentAt), lte(o.nextAttemptAt, now)))
        .returning();
      return sendRows(claimed, now);
    },

    /** Hourly: sent messages past their keeping time, and expired or given-up ones, go. */
    async sweep(now = Date.now()): Promise<number> {
      const old = now - OUTBOX.keepSentMs;
      const gone = await db
        .delete(o)
        .where(
          or(
            and(isNotNull(o.sentAt), lt(o.sentAt, old)),
            and(isNull(o.sentAt), isNotNull(o.expiresAt), lt(o.expiresAt, now)),
            and(isNull(o.sentAt), lt(o.createdAt, old)),
          ),
        )
        .returning({ id: o.id });
      return gone.length;
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
