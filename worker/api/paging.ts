import type { Context, TypedResponse } from "hono";
import type { JSONValue } from "hono/utils/types";
import type { Page } from "#worker/services/shared/pagination.ts";

/**
 * The one way an API list answers a page: the items as the JSON array the contract expects, the total
 * in `X-Total-Count`, and a `Link` header (RFC 8288) to the first, previous, next and last pages, keeping
 * the request's other parameters. A list that also continues by keyset gives `next` a cursor.
 */
export function sendPage<T>(
  c: Context,
  result: Page<T> & { next?: string | null },
): Response & TypedResponse<{ [key: string]: JSONValue }[], 200, "json"> {
  const url = new URL(c.req.url);
  const at = (set: Record<string, string | null>) => {
    const u = new URL(url);
    for (const [k, v] of Object.entries(set)) {
      if (v === null) u.searchParams.delete(k);
      else u.searchParams.set(k, v);
    }
    return `<${u.pathname}${u.search}>`;
  };
  const limit = String(result.limit);
  const links = [`${at({ page: "1", limit, cursor: null })}; rel="first"`];
  const usedCursor = url.searchParams.has("cursor");
  if (!usedCursor && result.page > 1) links.push(`${at({ page: String(result.page - 1), limit })}; rel="prev"`);
  if (result.next) links.push(`${at({ cursor: result.next, limit, page: null })}; rel="next"`);
  else if (!usedCursor && result.page < result.pages) {
    links.push(`${at({ page: String(result.page + 1), limit })}; rel="next"`);
  }
  links.push(`${at({ page: String(result.pages), limit, cursor: null })}; rel="last"`);
  c.header("X-Total-Count", String(result.total));
  c.header("Link", links.join(", "));
  c.header("Access-Control-Expose-Headers", "X-Total-Count, Link");
  // The route's contract describes the items (a JSON array of records); the service's type is checked there.
  return c.json(result.items as unknown as { [key: string]: JSONValue }[], 200);
}

/** The paging parameters of a request, for a service to check (page, limit, cursor). */
export function pagingOf(c: Context): { page?: string; limit?: string; cursor?: string } {
  return { page: c.req.query("page"), limit: c.req.query("limit"), cursor: c.req.query("cursor") };
}
