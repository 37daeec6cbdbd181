import { and, desc, eq, gt, lte, ne } from "drizzle-orm";
import { signSession, verifySession, SESSION_TTL_SECONDS } from "#worker/auth/tokens.ts";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Actor } from "#worker/services/shared/policy.ts";

export function toActor(row: typeof schema.users.$inferSelect): Actor {
  return { id: row.id, name: row.name, email: row.email, role: row.role, photoURL: row.photoUrl };
}

/** One row of the "signed-in sessions" list: never the token, only what the owner needs to recognise it. */
export interface SessionSummary {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  userAgent: string | null;
  country: string | null;
  city: string | null;
  colo: string | null;
}

export const SESSION_LIST_CAP = 50;

export function createSessionService(db: Db, env: Env) {
  return {
    /** Opens a session for a user: a row in D1 plus the signed token that names it. */
    async start(user: { id: string; email: string }): Promise<{ token: string; expiresAt: number }> {
      const sid = newId(24);
      const expiresAt = Date.now() + SESSION_TTL_SECONDS * 1000;
      await db.insert(schema.sessions).values({ id: sid, userId: user.id, expiresAt });
      const token = await signSession(env.SESSION_SECRET, { sub: user.id, sid, email: user.email });
      return { token, expiresAt };
    },

    /**
     * The user a token speaks for, or null. One query: the session must still exist (not logged out,
     * user not deleted) and not be expired, on top of the token's own signature and expiry.
     */
    async resolve(token: string | null): Promise<{ actor: Actor; sessionId: string } | null> {
      if (!token) return null;
      const claims = await verifySession(env.SESSION_SECRET, token);
      if (!claims) return null;
      const rows = await db
        .select({ user: schema.users })
        .from(schema.sessions)
        .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
        .where(
          and(
            eq(schema.sessions.id, claims.sid),
            eq(schema.sessions.userId, claims.sub),
            gt(schema.sessions.expiresAt, Date.now()),
          ),
        )
        .limit(1);
      const row = rows[0];
      return row ? { actor: toActor(row.user), sessionId: claims.sid } : null;
    },

    async end(sessionId: string): Promise<void> {
      await db.delete(schema.sessions).where(eq(schema.sessions.id, sessionId));
    },

    /** Ends one of this user's sessions; false if none. */
    async endForUser(userId: string, sessionId: string): Promise<boolean> {
      const gone = await db
        .delete(schema.sessions)
        .where(and(eq(schema.sessions.id, sessionId), eq(schema.sessions.userId, userId)))
        .returning({ id: schema.sessions.id });
      return gone.length > 0;
    },

    async endAll(userId: string): Promise<number> {
      const gone = await db
        .delete(schema.sessions)
        .where(eq(schema.sessions.userId, userId))
        .returning({ id: schema.sessions.id });
      return gone.length;
    },

    async endAllExcept(userId: string, sessionId: string): Promise<number> {
      const gone = await db
        .delete(schema.sessions)
        .where(and(eq(schema.sessions.userId, userId), ne(schema.sessions.id, sessionId)))
        .returning({ id: schema.sessions.id });
      return gone.length;
    },

    async listForUser(userId: string): Promise<SessionSummary[]> {
      const rows = await db
        .select({ id: schema.sessions.id, createdAt: schema.sessions.createdAt, expiresAt: schema.sessions.expiresAt })
        .from(schema.sessions)
        .where(and(eq(schema.sessions.userId, userId), gt(schema.sessions.expiresAt, Date.now())))
        .orderBy(desc(schema.sessions.createdAt))
        .limit(SESSION_LIST_CAP);
      return rows.map((r) => ({
        ...r,
        lastSeenAt: r.createdAt,
        userAgent: null,
        country: null,
        city: null,
        colo: null,
      }));
    },

    /** Removes sessions past their expiry (they no longer resolve anyway); answers how many went. */
    async sweepExpired(now = Date.now()): Promise<number> {
      const gone = await db
        .delete(schema.sessions)
        .where(lte(schema.sessions.expiresAt, now))
        .returning({ id: schema.sessions.id });
      return gone.length;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
