import { and, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { schema } from "#worker/db.ts";
import { visibleBlog } from "#worker/services/blogs/visible.ts";
import { reportedPage, type ReportedComment } from "#worker/services/comments/reported.ts";
import { Forbidden, NotFound, ValidationError } from "#worker/services/shared/errors.ts";
import { isIdShaped } from "#worker/services/shared/ids.ts";
import { canReportComment, requireAdmin, requireUser, type Actor } from "#worker/services/shared/policy.ts";
import { parsePaging, type Page } from "#worker/services/shared/pagination.ts";
import { LIMITS, optionalText, parse } from "#worker/services/shared/validation.ts";
import { REPORT_REASONS, REPORT_REASON_REQUIRED, type ReportReason } from "#worker/services/texts.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export type { ReportedComment, ReportNote } from "#worker/services/comments/reported.ts";

export const REPORTS_PAGE = 20;
export const REPORTS_PER_WINDOW = 30;
export const REPORT_WINDOW_SECONDS = 60 * 60;

/** Why: spam, abuse or other; with other, a short note of the reporter's own (ignored with the other two). */
export const reportInput = z
  .object({
    reason: z.enum(REPORT_REASONS, { error: REPORT_REASON_REQUIRED }),
    note: optionalText("Note", LIMITS.reportNote),
  })
  .transform(({ reason, note }) => ({ reason, note: reason === "other" ? (note ?? null) : null }));

/** The input's refusal, with its first field's words as the message (a client that shows one line shows the reason). */
function parseReport(input: unknown): { reason: ReportReason; note: string | null } {
  try {
    return parse(reportInput, input);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new ValidationError(err.fields, Object.values(err.fields)[0] ?? err.message, "invalid-report");
  }
}

/**
 * Reports of comments: anyone signed in reports someone else's comment once, with a reason (a second
 * report is the same row, with the latest reason), and may withdraw it; admins list the reported
 * ones with their reasons and keep (clear its reports) or delete them (comments.remove). Reports
 * change no public page: nothing cached carries them, so nothing is purged; the admin list and the
 * reader's own report state are on signed-in pages (private, no-store).
 */
export function createCommentReportService(k: Kernel) {
  const { db, rateLimit } = k;
  /**
   * The comment, if `reader` (when given) may see it: under a post they can read (visible, or their own,
   * or any for an admin). A comment under a post that went back to draft is not there for others (404).
   */
  async function existing(commentId: string, reader?: Actor) {
    if (!isIdShaped(commentId)) throw new NotFound("Comment not found.", "comment-not-found");
    const readable =
      !reader || reader.role === "admin" ? undefined : or(visibleBlog(), eq(schema.blogs.authorId, reader.id));
    const [comment] = await db
      .select({ id: schema.comments.id, userId: schema.comments.userId })
      .from(schema.comments)
      .innerJoin(schema.blogs, eq(schema.blogs.id, schema.comments.blogId))
      .where(and(eq(schema.comments.id, commentId), readable))
      .limit(1);
    if (!comment) throw new NotFound("Comment not found.", "comment-not-found");
    return comment;
  }

  return {
    async report(
      actor: Actor | null,
      commentId: string,
      input: unknown,
    ): Promise<{ reported: true; reason: ReportReason }> {
      const user = requireUser(actor);
      const comment = await existing(commentId, user);
      if (!canReportComment(user, comment)) {
        throw new Forbidden("You cannot report your own comment.", "own-comment");
      }
      const { reason, note } = parseReport(input);
      await rateLimit.hit(`comment-report:${user.id}`, REPORTS_PER_WINDOW, REPORT_WINDOW_SECONDS);
      // Insert-select: a comment deleted meanwhile inserts nothing rather than failing the foreign key.
      // One row per person and comment: a repeat keeps the first time and takes the latest reason.
      await db
        .insert(schema.commentReports)
        .select(
          db
            .select({
              commentId: schema.comments.id,
              userId: sql<string>`${user.id}`.as("user_id"),
              createdAt: sql<number>`${Date.now()}`.as("created_at"),
              reason: sql<ReportReason>`${reason}`.as("reason"),
              note: sql<string | null>`${note}`.as("note"),
            })
            .from(schema.comments)
            .where(eq(schema.comments.id, comment.id)),
        )
        .onConflictDoUpdate({
          target: [schema.commentReports.commentId, schema.commentReports.userId],
          set: { reason, note },
        });
      return { reported: true, reason };
    },

    /** The reporter takes their report back (none left to take is the same outcome: 0). */
    async withdraw(actor: Actor | null, commentId: string): Promise<{ withdrawnCount: number }> {
      const user = requireUser(actor);
      if (!isIdShaped(commentId)) throw new NotFound("Comment not found.", "comment-not-found");
      const gone = await db
        .delete(schema.commentReports)
        .where(and(eq(schema.commentReports.commentId, commentId), eq(schema.commentReports.userId, user.id)))
        .returning({ commentId: schema.commentReports.commentId });
      if (!gone.length) await existing(commentId);
      return { withdrawnCount: gone.length };
    },

    /** Admins: the reported comments, most recently reported first, a page at a time, with their reasons. */
    async reported(
      actor: Actor | null,
      input: { page?: unknown; limit?: unknown } = {},
    ): Promise<Page<ReportedComment>> {
      requireAdmin(actor);
      return reportedPage(db, parsePaging(input, REPORTS_PAGE));
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
