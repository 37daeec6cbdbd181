import { AS_CONTEXT, OBJECT_CONTEXT } from "#worker/services/federation/vocab.ts";

/** Items per page of an outbox or followers collection. */
export const COLLECTION_PAGE = 20;

/** An OrderedCollection's summary: its size and its first (and last) page. */
export function collection(id: string, total: number): Record<string, unknown> {
  return {
    "@context": AS_CONTEXT,
    id,
    type: "OrderedCollection",
    totalItems: total,
    first: `${id}?page=1`,
    ...(total > COLLECTION_PAGE ? { last: `${id}?page=${Math.ceil(total / COLLECTION_PAGE)}` } : {}),
  };
}

export function collectionPage(id: string, page: number, total: number, items: unknown[]): Record<string, unknown> {
  return {
    "@context": OBJECT_CONTEXT,
    id: `${id}?page=${page}`,
    type: "OrderedCollectionPage",
    partOf: id,
    totalItems: total,
    orderedItems: items,
    ...(page * COLLECTION_PAGE < total ? { next: `${id}?page=${page + 1}` } : {}),
    ...(page > 1 ? { prev: `${id}?page=${page - 1}` } : {}),
  };
}
