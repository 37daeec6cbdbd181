import { count, desc, eq, type SQL } from "drizzle-orm";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import type { ImageCleanup } from "#worker/services/images/cleanup.ts";
import { z } from "zod";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { findOr404, saveChanges } from "#worker/services/shared/records.ts";
import { newId } from "#worker/services/shared/ids.ts";
import { keepImageQuery, type ImageService } from "#worker/services/images/service.ts";
import { hasUpload, withPendingUpload } from "#worker/services/shared/uploads.ts";
import { requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { LIMITS, parse, ratingField, requiredText, requiredUrl } from "#worker/services/shared/validation.ts";
import type { Kernel } from "#worker/services/kernel.ts";

type ReviewRow = typeof schema.reviews.$inferSelect;

/** A review (feedback) as the REST contract and the testimonials slider see it. */
export interface Review {
  _id: string;
  name: string;
  designation: string;
  rating: number;
  review: string;
  image: string;
  /** Admin approval: only "approved" reviews are public. */
  status: ReviewStatus;
}

export const REVIEW_STATUSES = ["pending", "approved", "hidden"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** The one rule of which reviews anyone may see: the approved ones (home page, GET /api/review). */
export const approvedReview = (): SQL => eq(schema.reviews.status, "approved");

/** How many reviews wait for an admin's approval (the dashboard menu's number beside Manage Review). */
export const pendingReviewCountQuery = (db: Db) =>
  db.select({ total: count() }).from(schema.reviews).where(eq(schema.reviews.status, "pending"));

export const statusInput = z.object({
  status: z.enum(REVIEW_STATUSES, { error: "Status must be pending, approved or hidden." }),
});

/** Which reviews a list asks for: "all" and the statuses other than approved are for admins. */
const listStatusInput = z.enum([...REVIEW_STATUSES, "all"]).catch("approved");

export function toReview(row: ReviewRow): Review {
  return {
    _id: row.id,
    name: row.name,
    designation: row.designation,
    rating: row.rating,
    review: row.review,
    image: row.image,
    status: row.status,
  };
}

/** The feedback form: name, designation, message and image required; the rating defaults to 0 (spec section 5). */
export const newReviewInput = z.object({
  name: requiredText("Name", LIMITS.name),
  designation: requiredText("Designation", LIMITS.designation),
  rating: z.preprocess((v) => (v === undefined || v === null || v === "" ? 0 : v), ratingField),
  review: requiredText("Review", LIMITS.review),
  image: requiredUrl("Image"),
});

/** Edit feedback: name, designation and message required; rating and image are not part of the edit. */
export const reviewChangesInput = z.object({
  name: requiredText("Name", LIMITS.name),
  designation: requiredText("Designation", LIMITS.designation),
  review: requiredText("Review", LIMITS.review),
});

/** Feedback one account may send in a day: enough to correct a typo, not enough to flood the home page. */
export const REVIEWS_PER_DAY = 3;

/** The spec's feedback upload expiry; create clears it once the review is saved (decision 003). */
export const FEEDBACK_IMAGE_EXPIRATION_SECONDS = 600;

export function createReviewService(
  k: Kernel,
  deps: { images: ImageService; imageCleanup: Pick<ImageCleanup, "release"> },
) {
  const { db, purge, rateLimit } = k;
  const { images } = deps;
  const { release } = deps.imageCleanup;
  return {
    /**
     * GET /api/review and Manage Review: a page of reviews, newest first (50 without paging, the cap).
     * Everyone sees the approved ones; `status` ("pending", "hidden", "all") is for admins only.
     */
    async page(
      input: { page?: unknown; limit?: unknown; status?: unknown },
      actor: Actor | null = null,
    ): Promise<Page<Review>> {
      const paging = parsePaging(input, 50);
      const status = listStatusInput.parse(input.status ?? "approved");
      if (status !== "approved") requireAdmin(actor);
      const t = schema.reviews;
      const where = status === "all" ? undefined : eq(t.status, status);
      const [rows, totals] = await db.batch([
        db
          .select()
          .from(t)
          .where(where)
          .orderBy(desc(t.createdAt), desc(t.id))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ total: count() }).from(t).where(where),
      ]);
      return toPage(rows.map(toReview), totals[0]?.total ?? 0, paging);
    },

    /** Admin approval: approve, hide or send back to pending. The home page is purged when it changes. */
    async setStatus(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      requireAdmin(actor);
      const row = await findRow(id);
      const { status } = parse(statusInput, input);
      const result = await saveChanges<ReviewRow>(db, schema.reviews, row, { status });
      if (result.modifiedCount) await purge({ kind: "review.changed" });
      return result;
    },

    /** The admin's edit preload. */
    async byId(actor: Actor | null, id: string): Promise<Review> {
      requireAdmin(actor);
      return toReview(await findRow(id));
    },

    /**
     * Any signed-in person sends feedback. An uploaded photo of their own stops expiring here: the
     * feedback form asks the upload for a short expiry, but a testimonial must keep its photo
     * (docs/decisions/003-feedback-image-expiry.md). It waits as "pending" until an admin approves it.
     */
    async create(actor: Actor | null, input: unknown, upload?: unknown): Promise<{ insertedId: string }> {
      const user = requireUser(actor);
      const data = parse(newReviewInput, withPendingUpload(input, upload));
      await rateLimit.hit(`review:${user.id}`, REVIEWS_PER_DAY, 24 * 60 * 60);
      // The feedback form's photo: stored once the rest is accepted, with the spec's short expiry,
      // which the batch below clears with the insert.
      const image = hasUpload(upload)
        ? await images.storeUpload(user, upload, { expiration: FEEDBACK_IMAGE_EXPIRATION_SECONDS })
        : data.image;
      const id = newId();
      const insert = db.insert(schema.reviews).values({ id, userId: user.id, ...data, image, status: "pending" });
      const keep = keepImageQuery(db, image, user.id);
      if (keep) await db.batch([insert, keep]);
      else await insert;
      await purge({ kind: "review.changed" });
      return { insertedId: id };
    },

    async update(actor: Actor | null, id: string, input: unknown): Promise<{ modifiedCount: number }> {
      requireAdmin(actor);
      const row = await findRow(id);
      const data = parse(reviewChangesInput, input);
      const result = await saveChanges<ReviewRow>(db, schema.reviews, row, {
        name: data.name,
        designation: data.designation,
        review: data.review,
      });
      if (result.modifiedCount) await purge({ kind: "review.changed" });
      return result;
    },

    async remove(actor: Actor | null, id: string): Promise<{ deletedCount: number }> {
      requireAdmin(actor);
      const row = await findRow(id);
      const deleted = await db
        .delete(schema.reviews)
        .where(eq(schema.reviews.id, row.id))
        .returning({ id: schema.reviews.id });
      await purge({ kind: "review.changed" });
      await release([row.image]);
      return { deletedCount: deleted.length };
    },
  };

  function findRow(id: string): Promise<ReviewRow> {
    return findOr404(id, "Review not found.", (id) => db.query.reviews.findFirst({ where: eq(schema.reviews.id, id) }));
  }
}

export type ReviewService = ReturnType<typeof createReviewService>;
