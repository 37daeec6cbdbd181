import { eq, sql } from "drizzle-orm";
import { isbot } from "isbot";
import { schema } from "#worker/db.ts";
import type { SessionService } from "#worker/services/accounts/sessions.ts";
import { clientAddressKey } from "#worker/services/client-address.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { RateLimited } from "#worker/services/shared/errors.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { parse } from "#worker/services/shared/validation.ts";
import {
  deviceAndBrowserOf,
  countryOf,
  isCountedPath,
  postIdOf,
  sourceOf,
} from "#worker/services/analytics/classify.ts";
import { hitInput, utcDay, type AnalyticsHit } from "#worker/services/analytics/model.ts";

/** Why a hit was not counted (tests and logs read it; the beacon's answer is the same either way). */
export type Skipped = "opted-out" | "bot" | "private-page" | "own-post" | "too-often" | "no-queue";

/** The reads one client (address) counts per post or page and minute. */
export const HITS_PER_CLIENT_MINUTE = 3;

/**
 * The day's salt, per isolate: one D1 round trip per isolate and day instead of one per hit. A salt is
 * random and the same for every isolate (the first one to need it writes it; the rest read it back).
 */
const salts = new Map<string, string>();

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Accepting a beacon's hit: who is not counted, the visitor hash, and the message to the queue. Built by
 * the composition root like every service; the beacon's route runs before the session layer, so it hands
 * the session token here and `sessions` resolves it only for a post's page.
 */
export function createAnalyticsIngest(k: Kernel, deps: { sessions: Pick<SessionService, "resolve"> }) {
  const { db, env, rateLimit: limits } = k;
  async function saltOf(day: string): Promise<string> {
    const known = salts.get(day);
    if (known) return known;
    const fresh = hex(crypto.getRandomValues(new Uint8Array(32)).buffer);
    // One statement: the existing salt of the day if another isolate made it first, else this one.
    const [row] = await db
      .insert(schema.analyticsSalts)
      .values({ day, salt: fresh })
      .onConflictDoUpdate({ target: schema.analyticsSalts.day, set: { day: sql`excluded.day` } })
      .returning({ salt: schema.analyticsSalts.salt });
    const salt = row?.salt ?? fresh;
    salts.clear();
    salts.set(day, salt);
    return salt;
  }

  return {
    /**
     * Counts one read, or says why not: a reader who asked not to be tracked (DNT, Sec-GPC), a bot, a
     * private page, or the signed-in writer reading their own post. The address and agent are hashed with
     * the day's salt here and go no further.
     */
    async accept(
      request: Request,
      input: unknown,
      /** The request's session token, if any: resolved only when the page is a post. */
      token: string | null,
      now = Date.now(),
    ): Promise<{ counted: true; hit: AnalyticsHit } | { counted: false; reason: Skipped }> {
      const { path, referrer } = parse(hitInput, input);
      const h = request.headers;
      if (h.get("DNT") === "1" || h.get("Sec-GPC") === "1") return { counted: false, reason: "opted-out" };
      const userAgent = h.get("User-Agent") ?? "";
      if (!userAgent || isbot(userAgent)) return { counted: false, reason: "bot" };
      const site = new URL(k.config.siteUrl ?? request.url);
      const page = new URL(path, site);
      if (!isCountedPath(page.pathname)) return { counted: false, reason: "private-page" };
      const post = postIdOf(page.pathname);
      // Asked only for a post's page: a visitor, or any other page, costs no session look-up.
      const viewerId = post && token ? ((await deps.sessions.resolve(token))?.actor.id ?? null) : null;
      if (viewerId && post) {
        const [blog] = await db
          .select({ authorId: schema.blogs.authorId })
          .from(schema.blogs)
          .where(eq(schema.blogs.id, post))
          .limit(1);
        if (blog?.authorId === viewerId) return { counted: false, reason: "own-post" };
      }
      if (!env.ANALYTICS_QUEUE) return { counted: false, reason: "no-queue" };
      const address = h.get("CF-Connecting-IP") ?? "";
      const day = utcDay(now);
      const salt = await saltOf(day);
      // One client (its address: a rotated user agent is the same client) counts a few reads a minute
      // per post (or page) at most; more are not reads, they are someone inflating the numbers. The
      // limit's key is a salted hash too: no address is kept in D1, not even for a minute.
      const what = post ?? page.pathname.slice(0, 200);
      const client = await crypto.subtle.digest(
        "SHA-256",
        new TextEncoder().encode(`${salt}\n${clientAddressKey(address)}\n${what}`),
      );
      try {
        await limits.hit(`analytics:${hex(client).slice(0, 32)}`, HITS_PER_CLIENT_MINUTE, 60);
      } catch (err) {
        if (err instanceof RateLimited) return { counted: false, reason: "too-often" };
        throw err;
      }
      const digest = await crypto.subtle.digest(
        "SHA-256",
        new TextEncoder().encode(`${salt}\n${address}\n${userAgent}\n${site.host}`),
      );
      const hit: AnalyticsHit = {
        kind: "analytics-hit",
        id: newId(),
        day,
        minute: Math.floor(now / 60_000),
        post,
        ...sourceOf(page, referrer, site.hostname),
        country: countryOf(request),
        ...deviceAndBrowserOf(userAgent),
        visitor: hex(digest).slice(0, 32),
      };
      await env.ANALYTICS_QUEUE.send(hit, { contentType: "json" });
      return { counted: true, hit };
    },
  };
}
