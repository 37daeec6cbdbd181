import { and, eq } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import {
  blogSearchQueries,
  readableBy,
  toSearchPage,
  type BlogFilters,
  type SearchHit,
} from "#worker/services/blogs/queries.ts";
import { toBlog, toPublicCard, type PublicBlog } from "#worker/services/blogs/model.ts";
import type { Page } from "#worker/services/shared/pagination.ts";
import {
  commentCountQuery,
  commentsQuery,
  repliesQuery,
  toCommentPage,
  type Thread,
} from "#worker/services/comments/queries.ts";
import { reportedByQuery } from "#worker/services/comments/reported.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { likedQuery } from "#worker/services/likes.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { newestFirst, readsInFull, visibleBlog } from "#worker/services/blogs/visible.ts";
import { pickRelated, relatedQueries } from "#worker/services/search.ts";
import { recentlySavedQuery, savedStateQuery, type SavedBlog } from "#worker/services/saved-blogs.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export const SIDEBAR_LATEST = 4;
export const SIDEBAR_SAVED = 5;

/** A search hit as the /allBlogs page gets it: a public card (no writer email) and its highlight. */
export type PublicHit = Omit<SearchHit, "email">;

export interface Listing {
  results: Page<PublicHit>;
  latest: PublicBlog[];
  /** The reader's recently saved blogs; null for a visitor. */
  saved: SavedBlog[] | null;
}

export interface Post {
  blog: PublicBlog;
  /** A page of top comments, newest first (or, with a cursor, the ones older than it), with their first replies. */
  comments: Thread[];
  /** Every comment of the post, for the heading. */
  commentCount: number;
  /** The cursor to the next (older) comments, null when there are none. */
  commentsNext: string | null;
  /** The reader's own like and save; false for a visitor. */
  liked: boolean;
  saved: boolean;
  /** The ids of this post's comments the reader reported (and may withdraw); empty for a visitor. */
  reported: string[];
  /** Up to three visible posts to read next (same category first, then the most similar). */
  related: PublicBlog[];
}

/**
 * The reading pages' loaders: each gathers everything its page shows from several services'
 * queries in ONE D1 round trip (a db.batch), instead of one trip per section.
 */
export function createReadingService(k: Kernel) {
  const { db } = k;
  const latestQuery = () =>
    db
      .select()
      .from(schema.blogs)
      .where(visibleBlog())
      .orderBy(...newestFirst)
      .limit(SIDEBAR_LATEST);

  // A second round trip: the similarity query needs the post's own title and category first.
  const related = async (post: { id: string; title: string; category: string }) => {
    const lists = await db.batch(relatedQueries(db, post));
    return pickRelated(...lists).map((row) => toPublicCard(toBlog(row)));
  };

  const publicRows = (rows: Parameters<typeof toBlog>[0][]) => rows.map((row) => toPublicCard(toBlog(row)));
  const publicResults = (results: Page<SearchHit>): Page<PublicHit> => ({
    ...results,
    items: results.items.map(toPublicCard),
  });

  return {
    /** /allBlogs: the filtered page, its total, the sidebar's latest and the reader's saved blogs. */
    async listing(actor: Actor | null, filters: BlogFilters): Promise<Listing> {
      const { page, limit, queries } = blogSearchQueries(db, filters, 4);
      if (!actor) {
        const [rows, totals, latest] = await db.batch([...queries, latestQuery()]);
        return {
          results: publicResults(toSearchPage(rows, totals, page, limit)),
          latest: publicRows(latest),
          saved: null,
        };
      }
      const [rows, totals, latest, saved] = await db.batch([
        ...queries,
        latestQuery(),
        recentlySavedQuery(db, actor.id, SIDEBAR_SAVED),
      ]);
      return { results: publicResults(toSearchPage(rows, totals, page, limit)), latest: publicRows(latest), saved };
    },

    /** /blogs/{id}: the blog, its comments and the reader's like, save and report state in one round trip; then its related posts. */
    async post(actor: Actor | null, id: string, commentsCursor?: string | null): Promise<Post> {
      if (!isIdShaped(id)) throw new NotFound("Blog not found.");
      const comments = commentsQuery(db, id, { cursor: commentsCursor ?? undefined });
      const replies = repliesQuery(db, id, { cursor: commentsCursor ?? undefined });
      const commentCount = commentCountQuery(db, id);
      const blogQuery = db
        .select()
        .from(schema.blogs)
        // A visitor reads visible posts only; a writer also previews their own drafts (an admin, any).
        .where(and(eq(schema.blogs.id, id), readableBy(actor)))
        .limit(1);
      type Found = [
        (typeof schema.blogs.$inferSelect)[],
        Parameters<typeof toCommentPage>[0],
        Parameters<typeof toCommentPage>[1],
        { total: number }[],
      ];
      /** The one shape of the answer, whoever asks. */
      const answer = async (
        [blogs, commentRows, replyRows, counts]: Found,
        liked: boolean,
        saved: boolean,
        reported: string[] = [],
      ) => {
        if (!blogs[0]) throw new NotFound("Blog not found.");
        const page = toCommentPage(commentRows, replyRows);
        return {
          // The whole post only for a reader with access: an anonymous request (the shared copy) gets the preview.
          blog: toPublicCard(toBlog(blogs[0], await readsInFull(db, actor, blogs[0]))),
          comments: page.items,
          commentCount: counts[0]?.total ?? 0,
          commentsNext: page.next,
          liked,
          saved,
          reported,
          related: await related(blogs[0]),
        };
      };
      if (!actor) return answer(await db.batch([blogQuery, comments, replies, commentCount]), false, false);
      const [blogs, commentRows, replyRows, counts, liked, saved, reported] = await db.batch([
        blogQuery,
        comments,
        replies,
        commentCount,
        likedQuery(db, id, actor.id),
        savedStateQuery(db, actor.id, id),
        reportedByQuery(db, actor.id, id),
      ]);
      return answer(
        [blogs, commentRows, replyRows, counts],
        liked.length > 0,
        saved.length > 0,
        reported.map((r) => r.commentId),
      );
    },
  };
}

export type ReadingService = ReturnType<typeof createReadingService>;
