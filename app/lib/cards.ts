import type { BlogSummary } from "#worker/services/blogs/model.ts";

/**
 * A blog as its card draws it (BlogCard, the saved list): the loader sends only these fields, never the
 * body (`blog_details`), the writer's email or the counters, so a list's HTML and its .data answer stay
 * small and carry nothing a card does not show. Every list loader maps its blogs through here.
 */
export function toCard(blog: BlogSummary): BlogSummary {
  const { _id, title, image, category, author_name, short_description, status, publish_at, author_id, tags, slug } =
    blog;
  return { _id, title, image, category, author_name, short_description, status, publish_at, author_id, tags, slug };
}

/** A page of blogs (pagination.ts) with its items as cards; the page's numbers pass through unchanged. */
export function toCardPage<P extends { items: BlogSummary[] }>(page: P): Omit<P, "items"> & { items: BlogSummary[] } {
  return { ...page, items: page.items.map(toCard) };
}
