import { cookieHeader, readCookie } from "./auth/cookie";
import type { Env } from "./env";

/**
 * D1 read replication (the Sessions API). Anonymous reads may be served by the nearest replica
 * (`first-unconstrained`); writes start at the primary (`first-primary`). After a write the person's
 * bookmark travels in a cookie, so their next request reads at least what they wrote, wherever it lands.
 */
export const BOOKMARK_COOKIE = "d1-bookmark";
const BOOKMARK_SECONDS = 300;
const BOOKMARK = /^[0-9a-zA-Z_.:-]{1,200}$/;

export interface DatabaseSession {
  /** The binding to hand to the services for this request (a D1 session behaves like the database for them). */
  db: D1Database;
  /** The Set-Cookie that carries the bookmark after a write that succeeded, or null. */
  bookmarkCookie(status: number): string | null;
}

export function openDatabaseSession(env: Env, request: Request): DatabaseSession {
  const writes = request.method !== "GET" && request.method !== "HEAD";
  const carried = readCookie(request, BOOKMARK_COOKIE);
  const start = carried && BOOKMARK.test(carried) ? carried : writes ? "first-primary" : "first-unconstrained";
  // Local D1 (miniflare) has no replicas; its sessions still hand out bookmarks, so the round trip is real.
  const session = typeof env.DB.withSession === "function" ? env.DB.withSession(start) : null;
  return {
    db: (session ?? env.DB) as unknown as D1Database,
    bookmarkCookie(status: number) {
      const bookmark = writes && status < 400 ? session?.getBookmark() : null;
      return bookmark ? cookieHeader(BOOKMARK_COOKIE, bookmark, { maxAge: BOOKMARK_SECONDS }) : null;
    },
  };
}
