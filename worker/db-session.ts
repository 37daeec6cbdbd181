import { cookieHeader, expiredCookieHeader, readCookie, SESSION_COOKIE, sessionOf } from "#worker/auth/cookie.ts";
import type { Env } from "#worker/env.ts";

/**
 * D1 read replication (the Sessions API). Anonymous reads may be served by the nearest replica
 * (`first-unconstrained`); writes start at the primary (`first-primary`). After a write the person's
 * bookmark travels in a cookie, so their next request reads at least what they wrote, wherever it lands.
 *
 * Only signed-in people get one (a request with a session, or an answer that starts one): theirs are
 * the only requests that read it, because they are never answered from the shared cache. A signed-out
 * reader never carries it, so their requests stay shareable.
 */
export const BOOKMARK_COOKIE = "d1-bookmark";
const BOOKMARK_SECONDS = 300;
const BOOKMARK = /^[0-9a-zA-Z_.:-]{1,200}$/;

export interface DatabaseSession {
  /** The binding to hand to the services for this request (a D1 session behaves like the database for them). */
  db: D1Database;
  /** Whether a D1 call of this request failed (an outage: the answer becomes a 503). */
  failed(): boolean;
  /** The Set-Cookie that carries the bookmark after a signed-in write that succeeded, or null. */
  bookmarkCookie(response: Response): string | null;
}

export function openDatabaseSession(env: Env, request: Request): DatabaseSession {
  const writes = request.method !== "GET" && request.method !== "HEAD";
  const carried = readCookie(request, BOOKMARK_COOKIE);
  const start = carried && BOOKMARK.test(carried) ? carried : writes ? "first-primary" : "first-unconstrained";
  // Local D1 (miniflare) has no replicas; its sessions still hand out bookmarks, so the round trip is real.
  const session = typeof env.DB.withSession === "function" ? env.DB.withSession(start) : null;
  let failed = false;
  const db = watchFailures((session ?? env.DB) as unknown as D1Database, () => (failed = true));
  return {
    db,
    failed: () => failed,
    bookmarkCookie(response: Response) {
      const startsSession = response.headers
        .getSetCookie()
        .some((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/max-age=0/i.test(c));
      // Signing out lets the bookmark go too: the reader is anonymous again and shares cached copies.
      if (signsOut(response) && !startsSession) return carried ? expiredCookieHeader(BOOKMARK_COOKIE) : null;
      const signedIn = sessionOf(request).signedIn || startsSession;
      const bookmark = writes && signedIn && response.status < 400 ? session?.getBookmark() : null;
      return bookmark ? cookieHeader(BOOKMARK_COOKIE, bookmark, { maxAge: BOOKMARK_SECONDS }) : null;
    },
  };
}

/** The same binding, noting when any of its calls fails (the error still reaches the caller). */
function watchFailures(d1: D1Database, onFailure: () => void): D1Database {
  const noted = <T>(promise: Promise<T>) =>
    promise.catch((err: unknown) => {
      onFailure();
      throw err;
    });
  // D1's batch takes only its own statements: each wrapped one remembers the statement it wraps.
  const unwrap = new WeakMap<object, D1PreparedStatement>();
  const statement = (s: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(s, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => statement(target.bind(...args));
        if (prop === "all" || prop === "run" || prop === "first" || prop === "raw") {
          return (...args: unknown[]) => noted((value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    unwrap.set(wrapped, s);
    return wrapped;
  };
  return new Proxy(d1, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "prepare") {
        return (query: string) => {
          try {
            return statement(target.prepare(query));
          } catch (err) {
            onFailure();
            throw err;
          }
        };
      }
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          try {
            return noted(target.batch(statements.map((s) => unwrap.get(s) ?? s)));
          } catch (err) {
            onFailure();
            throw err;
          }
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** An answer that ends the session (sign-out) clears the session cookie. */
function signsOut(response: Response): boolean {
  return response.headers
    .getSetCookie()
    .some((c) => c.startsWith(`${SESSION_COOKIE}=;`) || (c.startsWith(`${SESSION_COOKIE}=`) && /max-age=0/i.test(c)));
}
