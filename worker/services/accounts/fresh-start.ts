import { and, eq, isNull, ne, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";

/**
 * Who opened a mailed link, as far as the account goes: the signed-in account and session of the browser
 * (or API caller) that posted it, or null for nobody signed in.
 */
export interface Confirmer {
  userId: string;
  sessionId: string | null;
}

export const confirmerOf = (user: { id: string } | null | undefined, sessionId: string | null): Confirmer | null =>
  user ? { userId: user.id, sessionId } : null;

/** Whether the link was confirmed from a session of the very account it is for. */
export const isOwnSession = (confirmer: Confirmer | null, userId: string) => confirmer?.userId === userId;

/**
 * The account's fields a fresh start clears, set in the same statement that proves the address: the
 * password and the Google link were chosen by whoever set the account up, who proved nothing.
 */
export const FRESH_START_FIELDS = { passwordHash: null, googleSub: null } as const;

/**
 * A link proved an address from a browser that is not signed in to the account (the address's owner
 * pressing Confirm on a mail someone else caused: a squatter's sign-up, an email change onto their
 * address). Nothing shows that the person who set the account up owns the address, so every way in they
 * hold goes, in the proof's batch: every session, passkey and pending link. `guard` must hold only when
 * the proof took effect in this very batch.
 */
export function freshStartStatements(db: Db, userId: string, guard: SQL): BatchItem<"sqlite">[] {
  const tokens = schema.accountTokens;
  return [
    db.delete(schema.sessions).where(and(eq(schema.sessions.userId, userId), guard)),
    db.delete(schema.passkeys).where(and(eq(schema.passkeys.userId, userId), guard)),
    db.delete(tokens).where(and(eq(tokens.userId, userId), isNull(tokens.usedAt), guard)),
  ];
}

/** Ends every session of the account but `keep` (the one that confirmed), guarded like the change. */
export function endOtherSessionsStatement(db: Db, userId: string, keep: string | null, guard: SQL) {
  const s = schema.sessions;
  return db.delete(s).where(and(eq(s.userId, userId), keep ? ne(s.id, keep) : undefined, guard));
}
