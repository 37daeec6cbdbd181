/**
 * The second half of the one rule (docs/decisions/053): who reads a visible post in full. "public": everyone;
 * "members": any signed-in account; "paid": paid and comped members. Its writer and admins always. Everyone
 * else, and every copy that leaves the site (feeds, search, newsletter, fediverse, meta), gets the preview.
 */
export const POST_VISIBILITIES = ["public", "members", "paid"] as const;
export type PostVisibility = (typeof POST_VISIBILITIES)[number];

/** The columns of a post the gate reads (a stored row has them all; this module imports no model, so no circle). */
interface GatedPost {
  blogDetails: string;
  shortDescription: string;
  visibility: PostVisibility;
}

/** Where the free preview ends: a line the writer puts in the text (the editor's hint names it). */
export const MEMBERS_ONLY_MARKER = "<!--members-only-->";

/** The part of a gated post everyone reads: the text above the marker, else the short description. */
export function previewOf(row: Pick<GatedPost, "blogDetails" | "shortDescription">): string {
  const at = row.blogDetails.indexOf(MEMBERS_ONLY_MARKER);
  return at >= 0 ? row.blogDetails.slice(0, at).trimEnd() : row.shortDescription;
}

/** The text a copy for anyone (feed, newsletter, fediverse) carries: the whole post only when it is public. */
export const publicTextOf = (row: GatedPost): string =>
  row.visibility === "public" ? row.blogDetails : previewOf(row);
