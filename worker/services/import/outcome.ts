import { eq, and, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";

const it = schema.importItems;

/** The subscriber slices of a job, for subscriberOutcome (one query of the report's batch). */
export const subscriberSlicesQuery = (db: Db, jobId: string) =>
  db
    .select({ state: it.state, note: it.note, payload: it.payload })
    .from(it)
    .where(and(eq(it.jobId, jobId), eq(it.kind, "subscribers")));

/** A job's entries counted by kind and state, for countsByKind (one query of the report's batch). */
export const byKindQuery = (db: Db, jobId: string) =>
  db
    .select({ kind: it.kind, state: it.state, n: sql<number>`count(*)` })
    .from(it)
    .where(eq(it.jobId, jobId))
    .groupBy(it.kind, it.state);

type ItemState = "pending" | "working" | "done" | "skipped" | "failed";

/** Each kind of entry of the report by state: { post: { done: 6 }, page: { skipped: 5 }, "site-page": {} }. */
export function countsByKind(
  rows: { kind: string; state: string; n: number }[],
): Record<"post" | "page" | "site-page", Partial<Record<ItemState, number>>> {
  const counts = { post: {}, page: {}, "site-page": {} } as Record<
    "post" | "page" | "site-page",
    Partial<Record<ItemState, number>>
  >;
  for (const row of rows)
    if (row.kind in counts) counts[row.kind as keyof typeof counts][row.state as ItemState] = Number(row.n);
  return counts;
}

/**
 * What became of the subscribers the preview counted (issue 47: 15 promised, 13 arrived, and the report
 * was silent): added, already on the list (a subscriber here, or one who left and is not re-added), not an
 * address, or the same address twice in the file; and, for a writer's own import, not theirs to bring.
 */
export function subscriberOutcome(
  promised: number,
  slices: { state: string; note: string; payload: string }[],
): { promised: number; added: number; alreadyListed: number; invalid: string[]; notAllowed: number; pending: number } {
  let added = 0;
  let alreadyListed = 0;
  let pending = 0;
  let notAllowed = 0;
  const invalid: string[] = [];
  for (const slice of slices) {
    if (slice.state !== "done") {
      pending += (JSON.parse(slice.payload) as unknown[]).length;
      continue;
    }
    const note = (slice.note ? JSON.parse(slice.note) : {}) as {
      imported?: number;
      skipped?: number;
      invalid?: string[];
      notAllowed?: number;
    };
    added += note.imported ?? 0;
    notAllowed += note.notAllowed ?? 0;
    alreadyListed += note.skipped ?? 0;
    invalid.push(...(note.invalid ?? []));
  }
  return { promised, added, alreadyListed, invalid, notAllowed, pending };
}
