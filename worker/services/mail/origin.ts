import { sql } from "drizzle-orm";
import { configOf } from "#worker/config.ts";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import { logError } from "#worker/log.ts";

/**
 * Where mail sent in the background (a cron's digest, a queue's newsletter send) links to when SITE_URL is
 * not set: the origin the site was last written to through, kept in site_settings. A cron run or a queue
 * batch has no request of its own, and a link to localhost would be a dead one, unsubscribe included.
 * With SITE_URL set nothing is kept: links never follow a Host header then.
 */
const KEY = "last_origin";

/** What this isolate last stored: one write per isolate and origin, not one per request. */
let stored: string | null = null;

/** Keeps the origin a write came through (called for non-GET requests; never throws). */
export async function rememberOrigin(db: Db, env: Env, origin: string): Promise<void> {
  if (configOf(env).siteUrl || stored === origin) return;
  try {
    const now = Date.now();
    await db
      .insert(schema.siteSettings)
      .values({ key: KEY, value: origin, updatedAt: now })
      .onConflictDoUpdate({
        target: schema.siteSettings.key,
        set: { value: origin, updatedAt: now },
        setWhere: sql`${schema.siteSettings.value} <> ${origin}`,
      });
    stored = origin;
  } catch (err) {
    logError("mail: could not remember the site's origin", err);
  }
}

/** The origin background work links to: SITE_URL, else the one last remembered, else null (never throws). */
export async function backgroundOrigin(db: Db, env: Env): Promise<string | null> {
  const configured = configOf(env).siteUrl;
  if (configured) return configured;
  try {
    const row = await db.query.siteSettings.findFirst({ where: (t, { eq }) => eq(t.key, KEY) });
    return row?.value ?? null;
  } catch (err) {
    logError("mail: could not read the site's remembered origin", err);
    return null;
  }
}
