import { useState, type MouseEvent } from "react";

/** The cursor of the Link header's rel="next", if the answer has one. */
export function nextCursor(link: string | null): string | null {
  const next = (link ?? "").split(",").find((part) => /rel="next"/.test(part));
  const match = next?.match(/[?&]cursor=([^&>]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/**
 * "Show more" over a cursor-paged JSON list (the comments, a thread's replies). The link's href is the
 * no-JavaScript way (a page with the next cursor in its URL); with JavaScript, `showMore` reads
 * `urlOf(cursor)` instead, adds the items not already shown, and keeps the next cursor from the answer's
 * Link header. A modified click (new tab) follows the link as usual.
 */
export function useLoadMore<T extends { _id: string }>(
  first: T[],
  firstCursor: string | null,
  urlOf: (cursor: string) => string,
) {
  const [more, setMore] = useState<T[]>([]);
  const [cursor, setCursor] = useState(firstCursor);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  async function showMore(event: MouseEvent<HTMLAnchorElement>) {
    if (!cursor || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setLoading(true);
    setFailed(false);
    try {
      const res = await fetch(urlOf(cursor), { headers: { Accept: "application/json" } });
      if (!res.ok) throw new Error(String(res.status));
      const page = (await res.json()) as T[];
      const seen = new Set([...first, ...more].map((c) => c._id));
      setMore((m) => [...m, ...page.filter((c) => !seen.has(c._id))]);
      setCursor(nextCursor(res.headers.get("Link")));
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }

  return { items: [...first, ...more], cursor, loading, failed, showMore };
}
