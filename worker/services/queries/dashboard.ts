import { reportedCommentCountQuery } from "#worker/services/comments/reported.ts";
import { pendingReviewCountQuery } from "#worker/services/reviews.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import type { Kernel } from "#worker/services/kernel.ts";

/** What waits for an admin: the numbers the dashboard menu shows beside Manage Review and Comments. */
export interface MenuCounts {
  pendingReviews: number;
  reportedComments: number;
}

export function createDashboardService(k: Kernel) {
  const { db } = k;
  return {
    /**
     * Admins: the pending reviews and the reported comments, counted on their indexes in one round trip
     * (every dashboard page's layout asks). A personal answer: the dashboard is never shared by the edge cache.
     */
    async menuCounts(actor: Actor | null): Promise<MenuCounts> {
      requireAdmin(actor);
      const [pending, reported] = await db.batch([pendingReviewCountQuery(db), reportedCommentCountQuery(db)]);
      return { pendingReviews: Number(pending[0]?.total ?? 0), reportedComments: Number(reported[0]?.total ?? 0) };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
