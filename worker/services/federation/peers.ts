import { eq, inArray, like, or, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { SigningStyle } from "#worker/services/federation/signatures.ts";

/** A server whose deliveries have failed for this long is taken for dead: its followers go. */
export const DEAD_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * What delivery learns of each remote server (ap_peers): the signature style it accepted last, and
 * since when it has been failing. A dead inbox (410 Gone, or failing for DEAD_AFTER_MS) loses its
 * followers, so nothing is queued for it again.
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

    /** 410 Gone: this inbox is no more. */
    dead: dropInbox,

    /** A failed delivery; answers true when the server has now failed for DEAD_AFTER_MS (its followers went). */
    async failing(host: string, now: number): Promise<boolean> {
      const [row] = await db
        .insert(p)
        .values({ host, failingSince: now })
        .onConflictDoUpdate({
          target: p.host,
          set: { failingSince: sql`coalesce(${p.failingSince}, ${now})`, updatedAt: now },
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
