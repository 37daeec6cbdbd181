import { and, count, desc, eq, inArray, isNotNull, lte, max, sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { toPage, type Page, type Paging } from "#worker/services/shared/pagination.ts";
import type { ReportReason } from "#worker/services/texts.ts";

/** Each reported comment shows its newest notes, this many; the counts per reason cover every report. */
export const NOTES_SHOWN = 5;

/** A report's own words, as the admins' list shows them. */
export interface ReportNote {
  note: string;
  reporter: { _id: string; name: string };
  /** ISO 8601. */
  created_at: string;
}

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
  /** How many reports gave each reason (they add up to `reports`). */
  reasons: Record<ReportReason, number>;
  /** The newest NOTES_SHOWN notes, newest first. */
  notes: ReportNote[];
  /** ISO 8601: the latest report. */
  last_reported_at: string;
}

const r = schema.commentReports;
const reasonCount = (reason: ReportReason, name: string) =>
  sql<number>`coalesce(sum(${r.reason} = ${reason}), 0)`.as(name);

/** One row per reported comment: its number of reports, per reason, and the time of the latest. */
function countsOfReports(db: Db) {
  return db
    .select({
      commentId: r.commentId,
      reports: count().as("report_count"),
      spam: reasonCount("spam", "spam_reports"),
      abuse: reasonCount("abuse", "abuse_reports"),
      other: reasonCount("other", "other_reports"),
      lastAt: max(r.createdAt).as("last_reported_at"),
    })
    .from(r)
    .groupBy(r.commentId)
    .as("counts");
}

/** How many comments have a report: the admins' list's total and the dashboard menu's number. */
export function reportedCommentCountQuery(db: Db) {
  return db.select({ total: sql<number>`count(distinct ${r.commentId})` }).from(r);
}

/** The comments a reader reported among one post's comments (the post page's "Reported" and "Withdraw report"). */
export function reportedByQuery(db: Db, userId: string, blogId: string) {
  return db
    .select({ commentId: r.commentId })
    .from(r)
    .innerJoin(schema.comments, eq(schema.comments.id, r.commentId))
    .where(and(eq(r.userId, userId), eq(schema.comments.blogId, blogId)));
}

/**
 * A page of reported comments, most recently reported first, with their counts per reason and their
 * newest notes, and their number: one round trip.
 */
export async function reportedPage(db: Db, paging: Paging): Promise<Page<ReportedComment>> {
  const counts = countsOfReports(db);
  const shown = countsOfReports(db);
  // The same page of comment ids as the list's, for the notes' statement of the same batch.
  const pageIds = db
    .select({ id: shown.commentId })
    .from(shown)
    .orderBy(desc(shown.lastAt), desc(shown.commentId))
    .limit(paging.limit)
    .offset(paging.offset);
  const ranked = db
    .select({
      commentId: r.commentId,
      note: r.note,
      notedAt: sql<number>`${r.createdAt}`.as("noted_at"),
      reporterId: sql<string>`${r.userId}`.as("reporter_id"),
      reporterName: sql<string>`${schema.users.name}`.as("reporter_name"),
      rank: sql<number>`row_number() over (partition by ${r.commentId} order by ${r.createdAt} desc)`.as("note_rank"),
    })
    .from(r)
    .innerJoin(schema.users, eq(schema.users.id, r.userId))
    .where(and(isNotNull(r.note), inArray(r.commentId, pageIds)))
    .as("ranked_notes");
  const [rows, totals, notes] = await db.batch([
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
        spam: counts.spam,
        abuse: counts.abuse,
        other: counts.other,
        lastAt: counts.lastAt,
      })
      .from(counts)
      .innerJoin(schema.comments, eq(schema.comments.id, counts.commentId))
      .innerJoin(schema.users, eq(schema.users.id, schema.comments.userId))
      .innerJoin(schema.blogs, eq(schema.blogs.id, schema.comments.blogId))
      .orderBy(desc(counts.lastAt), desc(schema.comments.id))
      .limit(paging.limit)
      .offset(paging.offset),
    reportedCommentCountQuery(db),
    db.select().from(ranked).where(lte(ranked.rank, NOTES_SHOWN)).orderBy(desc(ranked.notedAt)),
  ]);
  const notesOf = new Map<string, ReportNote[]>();
  for (const n of notes) {
    if (!n.note) continue;
    const list = notesOf.get(n.commentId) ?? [];
    list.push({
      note: n.note,
      reporter: { _id: n.reporterId, name: n.reporterName },
      created_at: new Date(Number(n.notedAt)).toISOString(),
    });
    notesOf.set(n.commentId, list);
  }
  const items = rows.map((row): ReportedComment => ({
    _id: row.id,
    body: row.body,
    created_at: new Date(row.createdAt).toISOString(),
    parent_id: row.parentId,
    author: { _id: row.userId, name: row.userName, email: row.userEmail },
    blog: { _id: row.blogId, title: row.blogTitle },
    reports: row.reports,
    reasons: { spam: Number(row.spam), abuse: Number(row.abuse), other: Number(row.other) },
    notes: notesOf.get(row.id) ?? [],
    last_reported_at: new Date(Number(row.lastAt)).toISOString(),
  }));
  return toPage(items, Number(totals[0]?.total ?? 0), paging);
}
