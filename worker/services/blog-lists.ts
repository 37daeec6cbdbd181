import { and, count, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { decodeCursor, encodeCursor, type Paging } from "#worker/services/shared/pagination.ts";
import { newestFirst } from "#worker/services/visible-blogs.ts";

/**
 * Lists of blogs at any size (docs/decisions/023-pagination-at-scale.md). A page is read in two steps
 * inside one statement: the ids of the page from a covering index in the newest-first order (the
 * OFFSET walks index entries only, never rows), then just those rows. A keyset cursor skips even that:
 * `(date_time, created_at, id) < cursor` is a range on the same index.
 */
const b = schema.blogs;

/** The ids of one page of blogs matching `where`, newest first (a subquery on a covering index). */
export function pageIdsQuery(db: Db, where: SQL | undefined, limit: number, offset: number) {
  return db
    .select({ id: b.id })
    .from(b)
    .where(where)
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
}

/** One page of blogs matching `where`, newest first, as an un-sent query (a loader may batch it). */
export function newestPageQuery(db: Db, where: SQL | undefined, paging: Pick<Paging, "limit" | "offset">) {
  return db
    .select()
    .from(b)
    .where(inArray(b.id, pageIdsQuery(db, where, paging.limit, paging.offset)))
    .orderBy(...newestFirst);
}

/** How many blogs match `where` (counted on an index: no row is read). */
export function countQuery(db: Db, where: SQL | undefined) {
  return db.select({ total: count() }).from(b).where(where);
}

/** The blogs after a cursor (the last one a client saw), newest first: a range on the newest-first index. */
export function afterCursor(cursor: unknown): SQL {
  const [dateTime, createdAt, id] = decodeCursor(cursor, ["s", "n", "s"]);
  return sql`(${b.dateTime}, ${b.createdAt}, ${b.id}) < (${dateTime}, ${createdAt}, ${id})`;
}

/** The cursor that continues after this row. */
export function cursorOf(row: { dateTime: string; createdAt: number; id: string }): string {
  return encodeCursor([row.dateTime, row.createdAt, row.id]);
}

/** A cursor page: `limit` rows after the cursor; one more is read to know whether a next page exists. */
export function cursorPageQuery(db: Db, where: SQL | undefined, cursor: unknown, limit: number) {
  return db
    .select()
    .from(b)
    .where(and(where, afterCursor(cursor)))
    .orderBy(...newestFirst)
    .limit(limit + 1);
}
