import { configOf } from "#worker/config.ts";
import { and, desc, eq, gt, lt, lte, ne, or, sql, isNull } from "drizzle-orm";
import {
  signSession,
  verifySession,
  SESSION_IDLE_SECONDS,
  SESSION_TOUCH_SECONDS,
  SESSION_TTL_SECONDS,
} from "#worker/auth/tokens.ts";
import { schema } from "#worker/db.ts";
import { newId } from "#worker/services/shared/ids.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import type { Kernel } from "#worker/services/kernel.ts";

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

/** Where a session was opened from, for the "signed-in sessions" list (all optional, all cut short). */
export interface SessionDevice {
  userAgent?: string | null;
  country?: string | null;
  city?: string | null;
  colo?: string | null;
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

/** A user has at most this many sessions listed (newest activity first); older ones still end with endAll. */
export const SESSION_LIST_CAP = 50;
const UA_CHARS = 256;
const PLACE_CHARS = 80;

const cut = (value: string | null | undefined, max: number) => (value ? value.slice(0, max) : null);

export function createSessionService(k: Kernel) {
  const { db, env } = k;
  const s = schema.sessions;
  // The idle rule in SQL: sessions older than last_seen_at use their created_at.
  const seenAt = sql<number>`coalesce(${s.lastSeenAt}, ${s.createdAt})`;
  const live = (now: number) => and(gt(s.expiresAt, now), gt(seenAt, now - SESSION_IDLE_SECONDS * 1000));

  return {
    /** Opens a session for a user: a row in D1 plus the signed token that names it. */
    async start(
      user: { id: string; email: string },
      device: SessionDevice = {},
    ): Promise<{ token: string; expiresAt: number; sessionId: string }> {
      const sid = newId(24);
      const now = Date.now();
      const expiresAt = now + SESSION_TTL_SECONDS * 1000;
      await db.insert(s).values({
        id: sid,
        userId: user.id,
        expiresAt,
        createdAt: now,
        lastSeenAt: now,
        userAgent: cut(device.userAgent, UA_CHARS),
        country: cut(device.country, PLACE_CHARS),
        city: cut(device.city, PLACE_CHARS),
        colo: cut(device.colo, PLACE_CHARS),
      });
      const token = await signSession(configOf(env).sessionSecret, { sub: user.id, sid, email: user.email });
      return { token, expiresAt, sessionId: sid };
    },

    /**
     * A new token for an existing, live session (POST /api/jwt without a password): it names the same
     * session, so it ends with it (sign-out, sign out everywhere, a password change, the idle timeout),
     * and it expires no later than the session's absolute end, so re-minting never extends a session.
     */
    async mint(sessionId: string, user: { id: string; email: string }): Promise<{ token: string } | null> {
      const now = Date.now();
      const row = await db.query.sessions.findFirst({
        where: and(eq(s.id, sessionId), eq(s.userId, user.id), live(now)),
      });
      if (!row) return null;
      const seconds = Math.floor((row.expiresAt - now) / 1000);
      if (seconds < 1) return null;
      const token = await signSession(
        configOf(env).sessionSecret,
        { sub: user.id, sid: row.id, email: user.email },
        seconds,
      );
      return { token };
    },

    /**
     * The user a token speaks for, or null. One query: the session must still exist (not logged out,
     * user not deleted), be within its absolute lifetime and not idle, on top of the token's own
     * signature and expiry. A session's last_seen_at is written at most once a minute.
     */
    async resolve(token: string | null): Promise<{ actor: Actor; sessionId: string } | null> {
      if (!token) return null;
      const claims = await verifySession(configOf(env).sessionSecret, token);
      if (!claims) return null;
      const now = Date.now();
      const rows = await db
        .select({ user: schema.users, seenAt })
        .from(s)
        .innerJoin(schema.users, eq(schema.users.id, s.userId))
        .where(and(eq(s.id, claims.sid), eq(s.userId, claims.sub), live(now)))
        .limit(1);
      const row = rows[0];
      if (!row) return null;
      if (row.seenAt <= now - SESSION_TOUCH_SECONDS * 1000) {
        await db
          .update(s)
          .set({ lastSeenAt: now })
          .where(
            and(eq(s.id, claims.sid), or(isNull(s.lastSeenAt), lt(s.lastSeenAt, now - SESSION_TOUCH_SECONDS * 1000))),
          );
      }
      return { actor: toActor(row.user), sessionId: claims.sid };
    },

    /** Ends one session (sign-out): every token that names it stops working. */
    async end(sessionId: string): Promise<void> {
      await db.delete(s).where(eq(s.id, sessionId));
    },

    /** Ends one of this user's sessions (the settings page's "sign out" beside a session); false if none. */
    async endForUser(userId: string, sessionId: string): Promise<boolean> {
      const gone = await db
        .delete(s)
        .where(and(eq(s.id, sessionId), eq(s.userId, userId)))
        .returning({ id: s.id });
      return gone.length > 0;
    },

    /** Ends every session of a user (sign out everywhere, a password reset); answers how many ended. */
    async endAll(userId: string): Promise<number> {
      const gone = await db.delete(s).where(eq(s.userId, userId)).returning({ id: s.id });
      return gone.length;
    },

    /** Ends every session of a user but the one asking (a password change keeps its own session). */
    async endAllExcept(userId: string, sessionId: string): Promise<number> {
      const gone = await db
        .delete(s)
        .where(and(eq(s.userId, userId), ne(s.id, sessionId)))
        .returning({ id: s.id });
      return gone.length;
    },

    /** The user's live sessions, most recently used first, at most SESSION_LIST_CAP. */
    async listForUser(userId: string): Promise<SessionSummary[]> {
      const now = Date.now();
      const rows = await db
        .select({
          id: s.id,
          createdAt: s.createdAt,
          lastSeenAt: seenAt,
          expiresAt: s.expiresAt,
          userAgent: s.userAgent,
          country: s.country,
          city: s.city,
          colo: s.colo,
        })
        .from(s)
        .where(and(eq(s.userId, userId), live(now)))
        .orderBy(desc(seenAt), desc(s.id))
        .limit(SESSION_LIST_CAP);
      return rows;
    },

    /** Removes sessions past their absolute end or idle timeout (they no longer resolve anyway); answers how many went. */
    async sweepExpired(now = Date.now()): Promise<number> {
      const gone = await db
        .delete(s)
        .where(or(lte(s.expiresAt, now), lte(seenAt, now - SESSION_IDLE_SECONDS * 1000)))
        .returning({ id: s.id });
      return gone.length;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
