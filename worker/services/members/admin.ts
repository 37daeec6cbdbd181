import { and, count, desc, eq, inArray, like, sql, type SQL } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import {
  compInput,
  memberStatus,
  PAID_SUBSCRIPTION_STATES,
  type MemberStatus,
} from "#worker/services/members/model.ts";
import { monthOf, mrrMonths, mrrReads, MRR_OF_PAID, PAYING } from "#worker/services/members/mrr.ts";
import type { createTierService } from "#worker/services/members/tiers.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { parsePaging, toPage, type Page } from "#worker/services/shared/pagination.ts";
import { requireAdmin, type Actor } from "#worker/services/shared/policy.ts";
import { parse } from "#worker/services/shared/validation.ts";
import { MEMBER_STATUSES } from "#drizzle/schema.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export interface MemberListItem {
  user_id: string;
  name: string;
  email: string;
  status: MemberStatus;
  tier_id: string | null;
  cadence: string | null;
  current_period_end: string | null;
  comp_until: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The admin's side: the list of members, comps, and the numbers (counts, MRR per currency). */
export function createMemberAdmin(k: Kernel, deps: { tiers: ReturnType<typeof createTierService> }) {
  const { db } = k;
  const { tiers } = deps;
  const m = schema.members;
  const u = schema.users;
  /** In SQL, on the row as it is when written: Stripe's subscription gives paid access (memberStatus's first rule). */
  const paidNow = inArray(m.subscriptionStatus, [...PAID_SUBSCRIPTION_STATES]);

  return {
    async list(actor: Actor | null, input: { status?: unknown; q?: unknown; page?: unknown; limit?: unknown }) {
      requireAdmin(actor);
      const paging = parsePaging(input, 25);
      const status = MEMBER_STATUSES.find((s) => s === input.status);
      const q = typeof input.q === "string" ? input.q.trim().toLowerCase().slice(0, 100) : "";
      const where: SQL | undefined = and(
        status ? eq(m.status, status) : undefined,
        q ? like(u.email, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
      );
      const [rows, totals] = await db.batch([
        db
          .select({ member: m, name: u.name, email: u.email })
          .from(m)
          .innerJoin(u, eq(u.id, m.userId))
          .where(where)
          .orderBy(desc(m.createdAt), desc(m.userId))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ n: count() }).from(m).innerJoin(u, eq(u.id, m.userId)).where(where),
      ]);
      const items: MemberListItem[] = rows.map((r) => ({
        user_id: r.member.userId,
        name: r.name,
        email: r.email,
        status: memberStatus(r.member),
        tier_id: memberStatus(r.member) === "comped" ? r.member.compTierId : r.member.tierId,
        cadence: r.member.cadence,
        current_period_end: iso(r.member.currentPeriodEnd),
        comp_until: iso(r.member.compUntil),
      }));
      return toPage(items, totals[0]?.n ?? 0, paging) satisfies Page<MemberListItem>;
    },

    /** The account an admin names by its sign-in address (the comp form on /dashboard/memberships). */
    async accountByEmail(actor: Actor | null, email: unknown): Promise<string> {
      requireAdmin(actor);
      const address = typeof email === "string" ? email.trim().toLowerCase() : "";
      const user = address
        ? await db.query.users.findFirst({ where: eq(u.email, address), columns: { id: true } })
        : undefined;
      if (!user) throw new NotFound("No account has this email address.", "user-not-found");
      return user.id;
    },

    /** Free access to a tier without Stripe, for good or until a date. */
    async comp(actor: Actor | null, userId: string, input: unknown, now = Date.now()) {
      requireAdmin(actor);
      const v = parse(compInput, input);
      await tiers.find(v.tier_id);
      const user = await db.query.users.findFirst({ where: eq(u.id, userId), columns: { id: true } });
      if (!user) throw new NotFound("No such user.", "user-not-found");
      const compUntil = v.until ? Date.parse(v.until) : null;
      // The status from the row as it is when written (a webhook job may write the subscription meanwhile).
      const status = memberStatus({ subscriptionStatus: null, compTierId: v.tier_id, compUntil }, now);
      await db
        .insert(m)
        .values({ userId, compTierId: v.tier_id, compUntil, status })
        .onConflictDoUpdate({
          target: m.userId,
          set: {
            compTierId: v.tier_id,
            compUntil,
            status: sql`case when ${paidNow} then 'paid' else ${status} end`,
            updatedAt: now,
          },
        });
      return { modifiedCount: 1 };
    },

    async uncomp(actor: Actor | null, userId: string, now = Date.now()) {
      requireAdmin(actor);
      const existing = await db.query.members.findFirst({ where: eq(m.userId, userId) });
      if (!existing?.compTierId) return { deletedCount: 0 };
      await db
        .update(m)
        .set({
          compTierId: null,
          compUntil: null,
          status: sql`case when ${paidNow} then 'paid' else 'free' end`,
          updatedAt: now,
        })
        .where(eq(m.userId, userId));
      return { deletedCount: 1 };
    },

    /**
     * Hourly: comps that ended. Reads already see them end (memberStatus reads comp_until); this rewrites the stored
     * status the admin's filter and the counts read. Answers how many rows changed.
     */
    async sweepComps(now = Date.now()): Promise<number> {
      const ended = await db
        .update(m)
        .set({
          status: sql`case when ${paidNow} then 'paid' else 'free' end`,
          updatedAt: now,
        })
        .where(and(eq(m.status, "comped"), sql`${m.compUntil} is not null and ${m.compUntil} <= ${now}`))
        .returning({ userId: m.userId });
      return ended.length;
    },

    /**
     * Counts by state (every account without a paid plan or comp is free), monthly recurring revenue per currency
     * now and at the end of each of the last twelve months (members/mrr.ts), and from the event ledger: paid sign-ups (completed Checkouts) and ended subscriptions per month over the
     * last twelve, and paid sign-ups per post (the post in the Checkout's metadata).
     */
    async stats(actor: Actor | null, now = Date.now()) {
      requireAdmin(actor);
      const e = schema.stripeEvents;
      const month = sql<string>`strftime('%Y-%m', ${e.receivedAt} / 1000, 'unixepoch')`;
      const since = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 11, 1);
      const postId = sql<string>`json_extract(${e.payload}, '$.metadata.post_id')`;
      const keys = Array.from({ length: 12 }, (_, i) => {
        const d = new Date(since);
        d.setUTCMonth(d.getUTCMonth() + i);
        return monthOf(d.getTime());
      });
      const [byStatus, accounts, revenue, perMonth, perPost, mrrInside, mrrBefore] = await db.batch([
        db.select({ status: m.status, n: count() }).from(m).groupBy(m.status),
        db.select({ n: count() }).from(u),
        db
          .select({ currency: m.currency, mrr: sql<number>`${MRR_OF_PAID}` })
          .from(m)
          .where(and(PAYING, sql`${m.amount} is not null and ${m.currency} is not null`))
          .groupBy(m.currency),
        db
          .select({ month, type: e.type, n: count() })
          .from(e)
          .where(
            and(
              sql`${e.type} in ('checkout.session.completed', 'customer.subscription.deleted')`,
              sql`${e.receivedAt} >= ${since}`,
            ),
          )
          .groupBy(month, e.type),
        db
          .select({ postId, title: schema.blogs.title, n: count() })
          .from(e)
          .leftJoin(schema.blogs, eq(schema.blogs.id, postId))
          .where(and(eq(e.type, "checkout.session.completed"), sql`${postId} is not null`))
          .groupBy(postId)
          .orderBy(desc(count()))
          .limit(10),
        ...mrrReads(db, keys[0]!, keys[keys.length - 1]!),
      ]);
      const counts = { paid: 0, comped: 0, free: 0 };
      for (const r of byStatus) if (r.status !== "free") counts[r.status] = r.n;
      counts.free = Math.max(0, (accounts[0]?.n ?? 0) - counts.paid - counts.comped);
      const months = keys.map((key) => {
        const of = (type: string) => perMonth.find((r) => r.month === key && r.type === type)?.n ?? 0;
        return { month: key, joined: of("checkout.session.completed"), ended: of("customer.subscription.deleted") };
      });
      return {
        counts,
        mrr: Object.fromEntries(revenue.map((r) => [r.currency!, r.mrr])) as Record<string, number>,
        // MRR per currency at each month's end (the current month: as it stands), the last twelve, oldest first.
        mrr_months: mrrMonths(keys, mrrInside, mrrBefore),
        months,
        posts: perPost.map((r) => ({ post_id: r.postId, title: r.title, signups: r.n })),
      };
    },
  };
}
