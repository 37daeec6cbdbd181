import type { Db } from "#worker/db.ts";
import { countQuery, cursorOf, cursorPageQuery, newestPageQuery, type BlogList } from "#worker/services/blogs/lists.ts";
import { toBlogPage, type CursorPage } from "#worker/services/blogs/queries.ts";
import type { Blog } from "#worker/services/blogs/model.ts";
import { parsePaging, type Page, type Paging } from "#worker/services/shared/pagination.ts";

/** A page of posts of a list (drafts included: the callers check who asks), newest first; one D1 round trip. */
export async function pageOfList(
  db: Db,
  list: BlogList,
  input: { page?: unknown; limit?: unknown },
  defaultLimit: number,
): Promise<Page<Blog>> {
  const paging = parsePaging(input, defaultLimit);
  const [rows, totals] = await db.batch([newestPageQuery(db, list, paging), countQuery(db, list)]);
  return toBlogPage(rows, totals, paging.page, paging.limit);
}

/** A page of a list by number (page/limit) or after a cursor, with the total; one D1 round trip. */
export async function listPageOf(
  db: Db,
  list: BlogList,
  input: { page?: unknown; limit?: unknown; cursor?: unknown },
  defaultLimit: number,
): Promise<CursorPage<Blog>> {
  const paging: Paging = parsePaging(input, defaultLimit);
  const hasCursor = input.cursor !== undefined && input.cursor !== "";
  const [rows, totals] = await db.batch([
    hasCursor ? cursorPageQuery(db, list, input.cursor, paging.limit) : newestPageQuery(db, list, paging),
    countQuery(db, list),
  ]);
  const more = hasCursor ? rows.length > paging.limit : paging.offset + rows.length < (totals[0]?.total ?? 0);
  const shown = rows.slice(0, paging.limit);
  const last = shown[shown.length - 1];
  return {
    ...toBlogPage(shown, totals, hasCursor ? 1 : paging.page, paging.limit),
    next: more && last ? cursorOf(last) : null,
  };
}
