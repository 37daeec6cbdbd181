import { eq } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "#worker/db.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";

/** A record by its id, or NotFound: an id not shaped like ours cannot exist, so it never reaches D1. */
export async function findOr404<T>(
  id: unknown,
  notFound: string,
  find: (id: string) => Promise<T | undefined>,
): Promise<T> {
  if (!isIdShaped(id)) throw new NotFound(notFound);
  const row = await find(id);
  if (!row) throw new NotFound(notFound);
  return row;
}

/**
 * What an update must write: the fields of `wanted` that were given (undefined means "keep the
 * stored value", the spec's rule for update forms) and differ from the stored `row`. Null when
 * nothing would change, which the contract answers as `{modifiedCount: 0}` without touching D1.
 */
export function changedFields<Row extends object>(row: Row, wanted: Partial<Row>): Partial<Row> | null {
  const changes: Partial<Row> = {};
  for (const key of Object.keys(wanted) as (keyof Row)[]) {
    const value = wanted[key];
    if (value !== undefined && value !== row[key]) changes[key] = value;
  }
  return Object.keys(changes).length === 0 ? null : changes;
}

type UpdatableTable = SQLiteTable & { id: SQLiteColumn; updatedAt: SQLiteColumn };

/** The update every edit ends with: only the changed fields (and updatedAt) of one row, or nothing at all. */
export async function saveChanges<Row extends { id: string }>(
  db: Db,
  table: UpdatableTable,
  row: Row,
  wanted: Partial<Row>,
): Promise<{ modifiedCount: number }> {
  const changes = changedFields(row, wanted);
  if (!changes) return { modifiedCount: 0 };
  await changesUpdate(db, table, row.id, changes);
  return { modifiedCount: 1 };
}

/** The un-sent update of one row's changed fields (and updatedAt), for a caller that batches it with other writes. */
export function changesUpdate(db: Db, table: UpdatableTable, id: string, changes: object) {
  return db
    .update(table)
    .set({ ...changes, updatedAt: Date.now() } as never)
    .where(eq(table.id, id));
}

/** Whether D1 refused a write for a unique index (two writes racing for one email, say). */
export function isUniqueViolation(err: unknown): boolean {
  const text = `${err instanceof Error ? err.message : ""} ${err instanceof Error && err.cause instanceof Error ? err.cause.message : ""}`;
  return /UNIQUE constraint failed/i.test(text);
}
