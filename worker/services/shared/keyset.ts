import { and, eq, gt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** Rows one keyset page reads (exports walk whole tables this way, never loading one whole). */
export const KEYSET_PAGE = 200;

/**
 * Walks a table in keyset pages on (k1, k2), usually (created_at, id) or a two-column primary key: `read` gets the condition "after the
 * last row seen" (undefined for the first page), must order by (c1, c2) and take at most KEYSET_PAGE rows,
 * selecting the two keys as `k1` and `k2`. Stops after `cap` rows.
 */
export async function* keysetPages<T extends { k1: number | string; k2: string }>(
  read: (after: SQL | undefined) => Promise<T[]>,
  c1: SQLiteColumn,
  c2: SQLiteColumn,
  cap = Number.POSITIVE_INFINITY,
): AsyncGenerator<T[]> {
  let after: SQL | undefined;
  let seen = 0;
  while (seen < cap) {
    const rows = (await read(after)).slice(0, cap - seen);
    if (rows.length === 0) return;
    seen += rows.length;
    yield rows;
    if (rows.length < KEYSET_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = or(gt(c1, last.k1), and(eq(c1, last.k1), gt(c2, last.k2)));
  }
}
