import { and, asc, desc, isNotNull, sql } from "drizzle-orm";
import { FEATURED_BLOGS_SHOWN } from "#worker/services/blogs/featured.ts";
import { schema } from "#worker/db.ts";
import { toAuthor, type Author } from "#worker/services/authors.ts";
import { LATEST_BLOGS, toBlog, toPublicCard, type PublicBlog } from "#worker/services/blogs/model.ts";
import { newestFirst, visibleBlog } from "#worker/services/blogs/visible.ts";
import { approvedReview, toReview, type Review } from "#worker/services/reviews.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export interface HomeData {
  latest: PublicBlog[];
  /** The six newest posts an admin featured, through the visible-blogs rule. */
  featured: PublicBlog[];
  authors: Author[];
  reviews: Review[];
}

export function createHomeService(k: Kernel) {
  const { db } = k;
  return {
    /**
     * Everything the home page shows from D1, in one round trip: a batch is sent to D1 as a single
     * request, where three separate service calls would be three. The orders are the ones
     * blogs.latest(), authors.list() and reviews.page() use, so the page shows the same lists.
     */
    async load(): Promise<HomeData> {
      const [blogRows, featuredRows, authorRows, reviewRows] = await db.batch([
        db
          .select()
          .from(schema.blogs)
          .where(visibleBlog())
          .orderBy(...newestFirst)
          .limit(LATEST_BLOGS),
        // The admins' picks: only visible ones, newest first (blogs_featured_idx holds only picked posts).
        db
          .select()
          .from(schema.blogs)
          .where(and(isNotNull(schema.blogs.featuredAt), visibleBlog()))
          .orderBy(...newestFirst)
          .limit(FEATURED_BLOGS_SHOWN),
        db.select().from(schema.authors).orderBy(asc(schema.authors.createdAt), asc(schema.authors.id)),
        // Approved reviews only; one testimonial per person (their newest approved one), so no
        // account can fill the slider.
        db
          .select()
          .from(schema.reviews)
          .where(
            and(
              approvedReview(),
              sql`(${schema.reviews.userId} is null or ${schema.reviews.id} = (select r2.id from ${schema.reviews} r2 where r2.user_id = ${schema.reviews.userId} and r2.status = 'approved' order by r2.created_at desc, r2.id desc limit 1))`,
            ),
          )
          .orderBy(desc(schema.reviews.createdAt), desc(schema.reviews.id)),
      ]);
      return {
        latest: blogRows.map((row) => toPublicCard(toBlog(row))),
        featured: featuredRows.map((row) => toPublicCard(toBlog(row))),
        authors: authorRows.map(toAuthor),
        reviews: reviewRows.map(toReview),
      };
    },
  };
}

export type HomeService = ReturnType<typeof createHomeService>;
