import { and, eq, gt, lte } from "drizzle-orm";
import { signSession, verifySession, SESSION_TTL_SECONDS } from "../auth/tokens";
import type { Db } from "../db";
import { schema } from "../db";
import type { Env } from "../env";
import { newId } from "./ids";
import type { Actor } from "./policy";

export function toActor(row: typeof schema.users.$inferSelect): Actor {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    photoURL: row.photoUrl,
    emailVerified: row.emailVerifiedAt !== null,
  };
}

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
