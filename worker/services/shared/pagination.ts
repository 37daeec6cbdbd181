/** Generic pagination: every list is paginated on the server and capped (page size at most MAX_PAGE_SIZE). */
export const MAX_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

/** Page and limit from untrusted input: anything odd falls back to the first page. */
export function normalizePage(page: unknown, limit: unknown, defaultLimit: number) {
  const p = Number(page);
  const l = Number(limit);
  return {
    page: Number.isInteger(p) && p >= 1 && p <= 100_000 ? p : 1,
    limit: Number.isInteger(l) && l >= 1 ? Math.min(l, MAX_PAGE_SIZE) : defaultLimit,
  };
}

/** A page of items with its total (at least one page, even when empty). */
export function toPage<T>(items: T[], total: number, page: number, limit: number): Page<T> {
  return { items, total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}
