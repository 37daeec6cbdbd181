import { ValidationError } from "#worker/services/shared/errors.ts";

/**
 * The one pagination of every list (pages and API): `?page` and `?limit` read here, `limit` capped,
 * and anything that is not a whole number in range answers 400 (a ValidationError), never a 500 and
 * never "everything". Deep pages stay cheap: lists of blogs skip to their page on a covering index
 * (ids only, worker/services/blogs/lists.ts), and the API also accepts a keyset `cursor`
 * (docs/decisions/023-pagination-at-scale.md).
 */

/** The most rows any list answers at once. */
export const MAX_PAGE_SIZE = 50;
/** Past this page nobody is reading: refused rather than asking D1 to skip millions of rows. */
export const MAX_PAGE = 1_000_000;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

export interface Paging {
  page: number;
  limit: number;
  /** Rows before this page. */
  offset: number;
}

const WHOLE = /^\d{1,9}$/;

function wholeNumber(value: unknown, name: "page" | "limit", min: number, max: number): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !WHOLE.test(text.trim())) throw badPaging(name, min, max);
  const n = Number(text.trim());
  if (n < min || n > max) throw badPaging(name, min, max);
  return n;
}

function badPaging(name: "page" | "limit" | "cursor", min = 1, max = MAX_PAGE): ValidationError {
  const message =
    name === "cursor"
      ? "cursor must be a value from a previous answer's Link header."
      : `${name} must be a whole number from ${min} to ${max}.`;
  return new ValidationError({ [name]: message }, message, "bad-paging");
}

/**
 * Page and limit from untrusted input (query strings, page URLs): missing means the first page and
 * the list's default size; a limit above the cap is lowered to it (a client asking for more gets the
 * most we give, and the Link header to the rest); a malformed or out-of-range value is a 400.
 */
export function parsePaging(
  input: { page?: unknown; limit?: unknown },
  defaultLimit: number,
  maxLimit = MAX_PAGE_SIZE,
): Paging {
  const page = wholeNumber(input.page, "page", 1, MAX_PAGE) ?? 1;
  const asked = wholeNumber(input.limit, "limit", 1, 1_000_000_000);
  const limit = Math.min(asked ?? defaultLimit, maxLimit);
  return { page, limit, offset: (page - 1) * limit };
}

export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

export function toPage<T>(items: T[], total: number, paging: { page: number; limit: number }): Page<T> {
  return { items, total, page: paging.page, limit: paging.limit, pages: pageCount(total, paging.limit) };
}

/**
 * The page numbers a pager shows: the first, the last, the current one and its neighbours, with
 * "gap" where pages are left out (1 … 4 5 6 … 12500). A handful at any size.
 */
export function pageWindow(page: number, pages: number, neighbours = 1): (number | "gap")[] {
  const shown = new Set<number>([1, pages]);
  for (let n = page - neighbours; n <= page + neighbours; n++) if (n >= 1 && n <= pages) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: (number | "gap")[] = [];
  for (const n of sorted) {
    const prev = out[out.length - 1];
    if (typeof prev === "number" && n - prev === 2) out.push(prev + 1);
    else if (typeof prev === "number" && n - prev > 2) out.push("gap");
    out.push(n);
  }
  return out;
}

/** A keyset cursor: the sort key of the last row of a page, opaque to clients (base64url JSON). */
export function encodeCursor(key: readonly (string | number)[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(key));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A cursor from a client, checked against the shape the list expects ("s" string, "n" number); 400 otherwise. */
export function decodeCursor(value: unknown, shape: readonly ("s" | "n")[]): (string | number)[] {
  if (typeof value !== "string" || value.length > 200 || !/^[A-Za-z0-9_-]+$/.test(value)) throw badPaging("cursor");
  let parsed: unknown;
  try {
    const bin = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  } catch {
    throw badPaging("cursor");
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== shape.length ||
    parsed.some((v, i) => (shape[i] === "s" ? typeof v !== "string" : !Number.isSafeInteger(v)))
  ) {
    throw badPaging("cursor");
  }
  return parsed as (string | number)[];
}
