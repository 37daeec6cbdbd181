import { eq, inArray, like, or, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { SigningStyle } from "#worker/services/federation/signatures.ts";

/** A server whose deliveries have failed for this long is taken for dead: its followers go. */
export const DEAD_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * A failure this long after the previous one starts a new failing spell: the server was quiet, not
 * down (we had nothing to send it), so a week counts only failures with no long gap between them.
 */
export const RESTART_AFTER_MS = 48 * 60 * 60 * 1000;

/** Whether an answer shows the server alive: anything below 500 but 408 and 429 (a 4xx refusal too). */
export function isAlive(status: number): boolean {
  return status > 0 && status < 500 && status !== 408 && status !== 429;
}

/**
 * What delivery learns of each remote server (ap_peers): the signature style it accepted last, and
 * since when it has been failing. A dead inbox (410 Gone, or failing for DEAD_AFTER_MS without an
 * answer showing it alive in between) loses its followers, so nothing is queued for it again.
 */
export function createPeers(db: Db) {
  const p = schema.apPeers;

  /** Removes every follower whose deliveries go to this inbox, or whose own inbox it is. */
  async function dropInbox(inbox: string) {
    const owners = db
      .select({ id: schema.apRemoteActors.id })
      .from(schema.apRemoteActors)
      .where(eq(schema.apRemoteActors.inbox, inbox));
    await db
      .delete(schema.apFollowers)
      .where(or(eq(schema.apFollowers.inbox, inbox), inArray(schema.apFollowers.remoteId, owners)));
  }

  return {
    async accepted(host: string, style: SigningStyle, known: SigningStyle | null) {
      await db
        .insert(p)
        .values({ host, signing: style, failingSince: null })
        .onConflictDoUpdate({ target: p.host, set: { signing: style, failingSince: null, updatedAt: Date.now() } });
      return known !== style;
    },

    /** An answer that is no failure of the server (a 4xx refusal): it is alive, its failing spell ends. */
    async alive(host: string, now: number) {
      await db
        .update(p)
        .set({ failingSince: null, updatedAt: now })
        .where(sql`${p.host} = ${host} and ${p.failingSince} is not null`);
    },

    /** 410 Gone: this inbox is no more. */
    dead: dropInbox,

    /** A failed delivery; answers true when the server has now failed for DEAD_AFTER_MS (its followers went). */
    async failing(host: string, now: number): Promise<boolean> {
      const [row] = await db
        .insert(p)
        .values({ host, failingSince: now, lastFailureAt: now })
        .onConflictDoUpdate({
          target: p.host,
          set: {
            // A spell goes on only while failures follow each other closely (RESTART_AFTER_MS).
            failingSince: sql`case when ${p.failingSince} is null or coalesce(${p.lastFailureAt}, ${p.failingSince}) < ${now - RESTART_AFTER_MS} then ${now} else ${p.failingSince} end`,
            lastFailureAt: now,
            updatedAt: now,
          },
        })
        .returning({ failingSince: p.failingSince });
      const since = row?.failingSince ?? now;
      if (now - since < DEAD_AFTER_MS) return false;
      const origin = (scheme: string) => `${scheme}://${host}/`;
      await db
        .delete(schema.apFollowers)
        .where(
          or(
            like(schema.apFollowers.inbox, `${origin("https")}%`),
            like(schema.apFollowers.inbox, `${origin("http")}%`),
          ),
        );
      return true;
    },
  };
}
