import type { Db } from "#worker/db.ts";
import type { AnalyticsHit } from "#worker/services/analytics/model.ts";

const text = (v: unknown, max: number) => typeof v === "string" && v.length > 0 && v.length <= max;

/** A message body the fold can trust (the producer is this Worker, but a queue is still input). */
export function wellFormed(hit: AnalyticsHit): boolean {
  return (
    text(hit.id, 40) &&
    /^\d{4}-\d{2}-\d{2}$/.test(hit.day) &&
    Number.isSafeInteger(hit.minute) &&
    (hit.post === null || text(hit.post, 40)) &&
    text(hit.source, 253) &&
    (hit.refHost === null || text(hit.refHost, 253)) &&
    text(hit.country, 8) &&
    text(hit.device, 20) &&
    text(hit.browser, 40) &&
    text(hit.visitor, 64)
  );
}

/** Each hit counted in three scopes: the site, its writer, its post; `nv` marks a scope's new visitor. */
const SCOPED = `
  SELECT 'site' AS scope, new_site AS nv, new_post AS np, day, blog_id, source, ref_host, country, device, browser FROM analytics_inbox
  UNION ALL
  SELECT 'w:' || owner, new_writer, new_post, day, blog_id, source, ref_host, country, device, browser FROM analytics_inbox WHERE owner IS NOT NULL
  UNION ALL
  SELECT 'p:' || blog_id, new_post, new_post, day, blog_id, source, ref_host, country, device, browser FROM analytics_inbox WHERE blog_id IS NOT NULL`;

/**
 * The rollups' dimensions, in two statements: D1 allows few terms in one compound SELECT. Visitors of a
 * source, country... are the scope's new visitors (a visitor counts under their first read of the day).
 */
const ROLLUPS = [
  `SELECT scope, 'total', day, '', count(*), sum(nv) FROM f GROUP BY scope, day
   UNION ALL SELECT scope, 'source', day, source, count(*), sum(nv) FROM f GROUP BY scope, day, source
   UNION ALL SELECT scope, 'country', day, country, count(*), sum(nv) FROM f GROUP BY scope, day, country`,
  `SELECT scope, 'device', day, device, count(*), sum(nv) FROM f GROUP BY scope, day, device
   UNION ALL SELECT scope, 'browser', day, browser, count(*), sum(nv) FROM f GROUP BY scope, day, browser
   UNION ALL SELECT scope, 'post', day, blog_id, count(*), sum(np) FROM f
     WHERE blog_id IS NOT NULL AND scope NOT LIKE 'p:%' GROUP BY scope, day, blog_id`,
  // The sites a group (search, social, fediverse) holds, keyed "group:host" (a domain source is its own row).
  `SELECT scope, 'site', day, source || ':' || ref_host, count(*), sum(nv) FROM f
     WHERE ref_host IS NOT NULL AND source <> ref_host GROUP BY scope, day, source, ref_host`,
];

/** Marks the first hit of each visitor (per day and scope) not already seen that day. */
const markNew = (flag: string, scope: string, group: string, where: string) => `
  UPDATE analytics_inbox SET ${flag} = 1
  WHERE ${where}
    AND hit_id = (SELECT i.hit_id FROM analytics_inbox i
                  WHERE i.day = analytics_inbox.day AND i.visitor = analytics_inbox.visitor${group}
                  ORDER BY i.minute, i.hit_id LIMIT 1)
    AND NOT EXISTS (SELECT 1 FROM analytics_visitors v
                    WHERE v.day = analytics_inbox.day AND v.scope = ${scope} AND v.hash = analytics_inbox.visitor)`;

/**
 * Folds a message batch into the rollups in ONE D1 batch (a transaction): the hits are staged in
 * analytics_inbox minus those already folded (analytics_seen: a message delivered twice counts once),
 * resolved to their post's writer, marked as new visitors or not, summed into analytics_daily and the
 * minute counter, remembered as seen, and the stage emptied. A failure rolls all of it back, so the
 * retried batch starts clean. Answers how many hits were new.
 */
export async function foldHits(db: Db, hits: AnalyticsHit[]): Promise<number> {
  const good = hits.filter(wellFormed);
  if (good.length === 0) return 0;
  const json = JSON.stringify(
    good.map((h) => ({
      id: h.id,
      day: h.day,
      minute: h.minute,
      post: h.post,
      source: h.source,
      refHost: h.refHost,
      country: h.country,
      device: h.device,
      browser: h.browser,
      visitor: h.visitor,
    })),
  );
  const d1 = db.$client;
  const run = (query: string, ...params: unknown[]) => d1.prepare(query).bind(...params);
  // Raw statements straight to the D1 binding: this is SQL that no query builder would make clearer.
  const results = await d1.batch([
    run(`DELETE FROM analytics_inbox`),
    run(
      `
      INSERT OR IGNORE INTO analytics_inbox (hit_id, day, minute, blog_id, source, ref_host, country, device, browser, visitor)
      SELECT json_extract(j.value, '$.id'), json_extract(j.value, '$.day'), json_extract(j.value, '$.minute'),
             json_extract(j.value, '$.post'), json_extract(j.value, '$.source'), json_extract(j.value, '$.refHost'),
             json_extract(j.value, '$.country'), json_extract(j.value, '$.device'), json_extract(j.value, '$.browser'),
             json_extract(j.value, '$.visitor')
      FROM json_each(?) j
      WHERE NOT EXISTS (SELECT 1 FROM analytics_seen s WHERE s.hit_id = json_extract(j.value, '$.id'))`,
      json,
    ),
    // Only a published post is a post here; a hit on anything else still counts for the site.
    run(`
      UPDATE analytics_inbox SET owner = (SELECT b.author_id FROM blogs b WHERE b.id = analytics_inbox.blog_id AND b.status = 'published')
      WHERE blog_id IS NOT NULL`),
    run(`UPDATE analytics_inbox SET blog_id = NULL WHERE owner IS NULL`),
    // A referrer that is a fediverse server the site has met (a follower's, a commenter's) is the fediverse.
    run(`
      UPDATE analytics_inbox SET source = 'fediverse'
      WHERE ref_host IS NOT NULL AND source = ref_host
        AND EXISTS (SELECT 1 FROM ap_remote_actors a WHERE a.host = analytics_inbox.ref_host)`),
    run(markNew("new_site", "'site'", "", "1")),
    run(
      markNew(
        "new_writer",
        "'w:' || analytics_inbox.owner",
        " AND i.owner = analytics_inbox.owner",
        "owner IS NOT NULL",
      ),
    ),
    run(
      markNew(
        "new_post",
        "'p:' || analytics_inbox.blog_id",
        " AND i.blog_id = analytics_inbox.blog_id",
        "blog_id IS NOT NULL",
      ),
    ),
    run(`
      INSERT OR IGNORE INTO analytics_visitors (day, scope, hash)
      SELECT day, 'site', visitor FROM analytics_inbox
      UNION ALL SELECT day, 'w:' || owner, visitor FROM analytics_inbox WHERE owner IS NOT NULL
      UNION ALL SELECT day, 'p:' || blog_id, visitor FROM analytics_inbox WHERE blog_id IS NOT NULL`),
    ...ROLLUPS.map((arms) =>
      run(`
      WITH f AS (${SCOPED})
      INSERT INTO analytics_daily (scope, dim, day, key, pageviews, visitors)
      SELECT * FROM (${arms}) WHERE true
      ON CONFLICT (scope, dim, day, key) DO UPDATE SET
        pageviews = pageviews + excluded.pageviews, visitors = visitors + excluded.visitors`),
    ),
    run(`
      WITH f AS (
        SELECT 'site' AS scope, minute FROM analytics_inbox
        UNION ALL SELECT 'w:' || owner, minute FROM analytics_inbox WHERE owner IS NOT NULL
        UNION ALL SELECT 'p:' || blog_id, minute FROM analytics_inbox WHERE blog_id IS NOT NULL)
      INSERT INTO analytics_recent (scope, minute, pageviews)
      SELECT scope, minute, count(*) FROM f WHERE true GROUP BY scope, minute
      ON CONFLICT (scope, minute) DO UPDATE SET pageviews = pageviews + excluded.pageviews`),
    run(`INSERT OR IGNORE INTO analytics_seen (hit_id, day) SELECT hit_id, day FROM analytics_inbox`),
    run(`DELETE FROM analytics_inbox`),
  ]);
  return Number(results[1]?.meta?.changes ?? 0);
}
