import { DurableObject } from "cloudflare:workers";
import type { Env } from "#worker/env.ts";

/** The most (post, day) rows one flush writes to D1 (one batch); the rest go with the next alarm. */
export const FLUSH_BATCH = 500;
/** How long counted views wait in a counter before they go to D1 in one batch (docs/decisions/014). */
export const FLUSH_AFTER_MS = 60_000;

/** One view as the Worker hands it over: the reader's address and agent pass through memory only. */
export interface ViewInput {
  blogId: string;
  /** UTC day, YYYY-MM-DD, of the view (the Worker's clock). */
  day: string;
  ip: string;
  userAgent: string;
}

export interface FlushResult {
  /** (post, day) rows written. */
  rows: number;
  /** D1 round trips: one batch per flush, whatever the number of views. */
  batches: number;
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * A view counter: one Durable Object per shard of posts (worker/services/views.ts picks the shard).
 * It keeps, in its own SQLite storage and for today only, a salted hash of each reader per post, so a
 * reader counts once per post and day; the salt is random, made for the day and deleted with the
 * day's hashes, so no one (us included) can tell later which address read what. Counted views wait in
 * `pending` and reach D1 in one batch when the alarm rings (or when the Stats page asks for a flush).
 */
export class ViewCounter extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS salts (day TEXT PRIMARY KEY, salt TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS seen (blog_id TEXT NOT NULL, day TEXT NOT NULL, visitor TEXT NOT NULL,
        PRIMARY KEY (blog_id, day, visitor));
      CREATE TABLE IF NOT EXISTS pending (blog_id TEXT NOT NULL, day TEXT NOT NULL, views INTEGER NOT NULL,
        PRIMARY KEY (blog_id, day));`);
  }

  /** Counts the view unless this reader was already counted for this post today. */
  async record(view: ViewInput): Promise<boolean> {
    const visitor = hex(
      await crypto.subtle.digest(
        "SHA-256",
        new TextEncoder().encode(`${this.saltFor(view.day)}\n${view.ip}\n${view.userAgent}`),
      ),
    );
    const inserted = this.sql
      .exec(
        "INSERT INTO seen (blog_id, day, visitor) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1",
        view.blogId,
        view.day,
        visitor,
      )
      .toArray();
    if (inserted.length === 0) return false;
    this.sql.exec(
      `INSERT INTO pending (blog_id, day, views) VALUES (?, ?, 1)
       ON CONFLICT (blog_id, day) DO UPDATE SET views = views + 1`,
      view.blogId,
      view.day,
    );
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + FLUSH_AFTER_MS);
    return true;
  }

  /**
   * Writes pending counts to D1 in one batch of at most FLUSH_BATCH rows (one per post and day); a post
   * deleted meanwhile is skipped. More than that waits for the next alarm, set at once: a flush is
   * bounded whatever the traffic.
   */
  async flush(): Promise<FlushResult> {
    const rows = this.sql
      .exec<{ blog_id: string; day: string; views: number }>("SELECT * FROM pending LIMIT ?", FLUSH_BATCH)
      .toArray();
    if (rows.length === 0) return { rows: 0, batches: 0 };
    // Taken out before the write, so views counted while it runs wait for the next flush.
    for (const r of rows) this.sql.exec("DELETE FROM pending WHERE blog_id = ? AND day = ?", r.blog_id, r.day);
    if (rows.length === FLUSH_BATCH) await this.ctx.storage.setAlarm(Date.now());
    const upsert = this.env.DB.prepare(
      `INSERT INTO blog_views_daily (blog_id, day, views) SELECT id, ?, ? FROM blogs WHERE id = ?
       ON CONFLICT (blog_id, day) DO UPDATE SET views = views + excluded.views`,
    );
    try {
      await this.env.DB.batch(rows.map((r) => upsert.bind(r.day, r.views, r.blog_id)));
    } catch (err) {
      // D1 did not take them: put them back for the next alarm.
      for (const r of rows) {
        this.sql.exec(
          `INSERT INTO pending (blog_id, day, views) VALUES (?, ?, ?)
           ON CONFLICT (blog_id, day) DO UPDATE SET views = views + excluded.views`,
          r.blog_id,
          r.day,
          r.views,
        );
      }
      await this.ctx.storage.setAlarm(Date.now() + FLUSH_AFTER_MS);
      throw err;
    }
    return { rows: rows.length, batches: 1 };
  }

  async alarm(): Promise<void> {
    await this.flush();
  }

  /** Today's salt, made on first use; earlier days' salts and reader hashes are deleted with it. */
  private saltFor(day: string): string {
    const found = this.sql.exec<{ salt: string }>("SELECT salt FROM salts WHERE day = ?", day).toArray()[0];
    if (found) return found.salt;
    const salt = hex(crypto.getRandomValues(new Uint8Array(16)).buffer);
    this.sql.exec("DELETE FROM salts WHERE day < ?", day);
    this.sql.exec("DELETE FROM seen WHERE day < ?", day);
    this.sql.exec("INSERT INTO salts (day, salt) VALUES (?, ?)", day, salt);
    return salt;
  }
}
