import { and, asc, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { decodeCursor, encodeCursor, type Paging } from "#worker/services/shared/pagination.ts";
import {
  anyStatusTotal,
  newestFirst,
  scopeCondition,
  visibleBlogsWhere,
  visibleTotal,
  type BlogScope,
} from "#worker/services/blogs/visible.ts";

/**
 * Lists of blogs at any size (docs/decisions/023-pagination-at-scale.md, 034-kept-totals.md). A page is
 * read in two steps inside one statement: the ids of the page from a covering index in the newest-first
 * order (the OFFSET walks index entries only, never rows), then just those rows. A keyset cursor skips
 * even that: `(date_time, created_at, id) < cursor` is a range on the same index. A list whose total is
 * kept by triggers also reads its deep half from the other end, so the last page costs what the first does.
 */
const b = schema.blogs;

/** What a list shows (`where`) and how many that is (`total`, a scalar SQL expression). */
export interface BlogList {
  where: SQL | undefined;
  total: SQL<number>;
  /** Whether `total` is kept (cheap): then a deep page is read from the oldest end. */
  kept: boolean;
}

/** The visible blogs of a scope (every public list): total kept by triggers. */
export function visibleList(scope: BlogScope): BlogList {
  return { where: visibleBlogsWhere(scopeCondition(scope)), total: visibleTotal(scope), kept: true };
}

/** Every blog of a scope whatever its status (a writer's or admin's tables): total kept by triggers. */
export function anyStatusList(scope: BlogScope): BlogList {
  return { where: scopeCondition(scope), total: anyStatusTotal(scope), kept: true };
}

/** Any other filter (an admin search): counted on its index, read from the newest end. */
export function filteredList(where: SQL | undefined): BlogList {
  return { where, total: sql<number>`(select count(*) from ${b} where ${where ?? sql`1`})`, kept: false };
}

/**
 * The ids of one page of a list, newest first, as a subquery on a covering index. For a kept total it is
 * two halves of which SQLite runs one (the other's LIMIT is 0, which stops it before it reads a row):
 * offsets in the first half walk from the newest end, the rest from the oldest end, so no page walks
 * more than half the list and the last page walks only its own rows.
 */
export function pageIdsQuery(db: Db, list: BlogList, limit: number, offset: number): SQL {
  const newest = (rows: SQL | number) =>
    db
      .select({ id: b.id })
      .from(b)
      .where(list.where)
      .orderBy(...newestFirst)
      .limit(rows as number)
      .offset(offset);
  if (!list.kept) return sql`${newest(limit)}`;
  const total = list.total;
  const fromNewest = sql`case when ${offset} * 2 <= ${total} then ${limit} else 0 end`;
  const fromOldest = sql`case when ${offset} * 2 > ${total} then max(0, min(${limit}, ${total} - ${offset})) else 0 end`;
  const oldest = db
    .select({ id: b.id })
    .from(b)
    .where(list.where)
    .orderBy(asc(b.dateTime), asc(b.createdAt), asc(b.id))
    .limit(fromOldest as unknown as number)
    .offset(sql`max(0, ${total} - ${offset} - ${limit})` as unknown as number);
  return sql`(select id from ${newest(fromNewest)} union all select id from ${oldest})`;
}

/** One page of a list, newest first, as an un-sent query (a loader may batch it). */
export function newestPageQuery(db: Db, list: BlogList, paging: Pick<Paging, "limit" | "offset">) {
  return db
    .select()
    .from(b)
    .where(inArray(b.id, pageIdsQuery(db, list, paging.limit, paging.offset)))
    .orderBy(...newestFirst);
}

/** How many blogs a list has (kept lists read a row or two; others count on an index). */
export function countQuery(db: Db, list: BlogList) {
  return db.select({ total: sql<number>`${list.total}` }).from(sql`(select 1)`);
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
export function cursorPageQuery(db: Db, list: BlogList, cursor: unknown, limit: number) {
  return db
    .select()
    .from(b)
    .where(and(list.where, afterCursor(cursor)))
    .orderBy(...newestFirst)
    .limit(limit + 1);
}
