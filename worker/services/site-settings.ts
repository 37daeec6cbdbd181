import { eq } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";

/**
 * Site-wide choices an admin makes, each with its values and its default (a key without a row in
 * site_settings has its default). The service that owns a choice validates and explains it.
 */
export const SITE_SETTINGS = {
  /** What the newsletter mail of a post carries when the post follows the site's default. */
  newsletter_content: { values: ["teaser", "full"], default: "teaser" },
  /** Who the newsletter mails a post to when the post follows the site's default (issue 46). */
  newsletter_audience: { values: ["everyone", "free", "paid"], default: "everyone" },
} as const;

export type SiteSettingKey = keyof typeof SITE_SETTINGS;
export type SiteSettingValue<K extends SiteSettingKey> = (typeof SITE_SETTINGS)[K]["values"][number];

/** One setting as stored, or its default (also for a stored value that is no longer one of its values). */
export async function readSiteSetting<K extends SiteSettingKey>(db: Db, key: K): Promise<SiteSettingValue<K>> {
  const row = await db.query.siteSettings.findFirst({ where: eq(schema.siteSettings.key, key) });
  const values: readonly string[] = SITE_SETTINGS[key].values;
  return (row && values.includes(row.value) ? row.value : SITE_SETTINGS[key].default) as SiteSettingValue<K>;
}

/** Stores one setting (already validated by its owner); answers whether it changed. */
export async function writeSiteSetting<K extends SiteSettingKey>(
  db: Db,
  key: K,
  value: SiteSettingValue<K>,
  by: string,
): Promise<boolean> {
  if ((await readSiteSetting(db, key)) === value) return false;
  const now = Date.now();
  await db
    .insert(schema.siteSettings)
    .values({ key, value, updatedBy: by, updatedAt: now })
    .onConflictDoUpdate({ target: schema.siteSettings.key, set: { value, updatedBy: by, updatedAt: now } });
  return true;
}
