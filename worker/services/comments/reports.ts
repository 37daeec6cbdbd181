import { count, desc, eq, max, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { Forbidden, NotFound } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { canReportComment, requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import type { RateLimitService } from "#worker/services/rate-limit.ts";

export const REPORTS_PAGE = 20;
export const REPORTS_PER_WINDOW = 30;
export const REPORT_WINDOW_SECONDS = 60 * 60;

/** A reported comment as /dashboard/comments lists it. */
export interface ReportedComment {
  _id: string;
  body: string;
  /** ISO 8601. */
  created_at: string;
  parent_id: string | null;
  author: { _id: string; name: string; email: string };
  blog: { _id: string; title: string };
  /** How many people reported it. */
  reports: number;
  /** ISO 8601: the latest report. */
  last_reported_at: string;
}

/**
 * Reports of comments: anyone signed in reports a comment once (a second report is the same row);
 * admins list the reported ones and keep (clear its reports) or delete them (comments.remove).
 * Reports change no public page: nothing cached carries them, so nothing is purged; the admin list
 * is a signed-in page (private, no-store).
 */
export function createCommentReportService(db: Db, rateLimit: RateLimitService) {
  return {
    async report(actor: Actor | null, commentId: string): Promise<{ reported: true }> {
      const user = requireUser(actor);
      if (!isIdShaped(commentId)) throw new NotFound("Comment not found.", "comment-not-found");
      const comment = await db.query.comments.findFirst({
        where: eq(schema.comments.id, commentId),
        columns: { id: true, userId: true },
      });
      if (!comment) throw new NotFound("Comment not found.", "comment-not-found");
      if (!canReportComment(user, comment)) {
        throw new Forbidden("You cannot report your own comment.", "own-comment");
      }
      await rateLimit.hit(`comment-report:${user.id}`, REPORTS_PER_WINDOW, REPORT_WINDOW_SECONDS);
      // Insert-select: a comment deleted meanwhile inserts nothing rather than failing the foreign key.
      await db
        .insert(schema.commentReports)
        .select(
          db
            .select({
              commentId: schema.comments.id,
              userId: sql<string>`${user.id}`.as("user_id"),
              createdAt: sql<number>`${Date.now()}`.as("created_at"),
            })
            .from(schema.comments)
            .where(eq(schema.comments.id, comment.id)),
        )
        .onConflictDoNothing();
      return { reported: true };
    },

    /** Admins: the reported comments, most recently reported first, a page at a time. */
    async reported(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown } = {},
    ): Promise<Page<ReportedComment>> {
      requireAdmin(actor);
      const paging = parsePaging(input, REPORTS_PAGE);
      const r = schema.commentReports;
      const counts = db
        .select({
          commentId: r.commentId,
          reports: count().as("report_count"),
          lastAt: max(r.createdAt).as("last_reported_at"),
        })
        .from(r)
        .groupBy(r.commentId)
        .as("counts");
      const [rows, totals] = await db.batch([
        db
          .select({
            id: schema.comments.id,
            body: schema.comments.body,
            createdAt: schema.comments.createdAt,
            parentId: schema.comments.parentId,
            userId: schema.comments.userId,
            userName: schema.users.name,
            userEmail: schema.users.email,
            blogId: schema.comments.blogId,
            blogTitle: schema.blogs.title,
            reports: counts.reports,
            lastAt: counts.lastAt,
          })
          .from(counts)
          .innerJoin(schema.comments, eq(schema.comments.id, counts.commentId))
          .innerJoin(schema.users, eq(schema.users.id, schema.comments.userId))
          .innerJoin(schema.blogs, eq(schema.blogs.id, schema.comments.blogId))
          .orderBy(desc(counts.lastAt), desc(schema.comments.id))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ total: sql<number>`count(distinct ${r.commentId})` }).from(r),
      ]);
      const items = rows.map((row): ReportedComment => ({
        _id: row.id,
        body: row.body,
        created_at: new Date(row.createdAt).toISOString(),
        parent_id: row.parentId,
        author: { _id: row.userId, name: row.userName, email: row.userEmail },
        blog: { _id: row.blogId, title: row.blogTitle },
        reports: row.reports,
        last_reported_at: new Date(Number(row.lastAt)).toISOString(),
      }));
      return toPage(items, Number(totals[0]?.total ?? 0), paging);
    },

    /** Admins: keep a reported comment (its reports are cleared). */
    async keep(actor: Actor | null, commentId: string): Promise<{ clearedCount: number }> {
      requireAdmin(actor);
      if (!isIdShaped(commentId)) throw new NotFound("Comment not found.", "comment-not-found");
      const cleared = await db
        .delete(schema.commentReports)
        .where(eq(schema.commentReports.commentId, commentId))
        .returning({ userId: schema.commentReports.userId });
      return { clearedCount: cleared.length };
    },
  };
}

export type CommentReportService = ReturnType<typeof createCommentReportService>;
