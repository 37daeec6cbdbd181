import { sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import type { Scope } from "#worker/services/analytics/report.ts";

/** Rows of the newsletter's part of the dashboard. */
export interface NewsletterSent {
  id: string;
  title: string;
  sentAt: number;
  /** Reads that came through the mail's links (`?ref=newsletter`), all days kept. */
  reads: number;
  /** Confirmed subscribers who subscribed from this post. */
  gained: number;
}

export interface NewsletterGain {
  id: string;
  title: string;
  gained: number;
}

const LIMIT = 20;

/** What the newsletter brought, in a scope: reads per sent post, and subscribers gained per post. */
export async function newsletterReport(
  db: Db,
  scope: Scope,
): Promise<{ sent: NewsletterSent[]; gained: NewsletterGain[] }> {
  const whose =
    scope.kind === "site"
      ? sql`1`
      : scope.kind === "writer"
        ? sql`b.author_id = ${scope.key.slice(2)}`
        : sql`b.id = ${scope.post!.id}`;
  const [sent, gained] = await Promise.all([
    db.all<{ id: string; title: string; sentAt: number; reads: number; gained: number }>(sql`
      SELECT s.blog_id AS id, b.title AS title, s.created_at AS sentAt,
        (SELECT coalesce(sum(a.pageviews), 0) FROM analytics_daily a
          WHERE a.scope = 'p:' || s.blog_id AND a.dim = 'source' AND a.key = 'newsletter') AS reads,
        (SELECT count(*) FROM newsletter_subscriptions n
          WHERE n.source_blog_id = s.blog_id AND n.state = 'confirmed') AS gained
      FROM newsletter_sends s JOIN blogs b ON b.id = s.blog_id
      WHERE ${whose}
      ORDER BY s.created_at DESC LIMIT ${LIMIT}`),
    db.all<{ id: string; title: string; gained: number }>(sql`
      SELECT n.source_blog_id AS id, b.title AS title, count(*) AS gained
      FROM newsletter_subscriptions n JOIN blogs b ON b.id = n.source_blog_id
      WHERE n.state = 'confirmed' AND ${whose}
      GROUP BY n.source_blog_id ORDER BY gained DESC, id LIMIT ${LIMIT}`),
  ]);
  return {
    sent: (sent as NewsletterSent[]).map((r) => ({ ...r, reads: Number(r.reads), gained: Number(r.gained) })),
    gained: (gained as NewsletterGain[]).map((r) => ({ ...r, gained: Number(r.gained) })),
  };
}
