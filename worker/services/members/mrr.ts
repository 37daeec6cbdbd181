import { and, gte, lt, lte, sql } from "drizzle-orm";
import { schema, type Db } from "#worker/db.ts";

/** "YYYY-MM" of an instant, in UTC (the month an MRR value belongs to). */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** The MRR of paid members, per currency, in minor units: a yearly amount counts a twelfth (comps count nothing). */
export const MRR_OF_PAID = sql`cast(round(sum(case when cadence = 'year' then amount / 12.0 else amount end)) as integer)`;

/** The members whose amount is revenue: paid, and past any free trial (a trial has access but pays nothing yet). */
export const PAYING = sql`status = 'paid' and subscription_status is not 'trialing'`;

/**
 * The statement that sets this month's MRR of every currency to what it is after the member writes before it in
 * the same batch: paid members' amounts, recomputed from the members table, so running it again changes nothing.
 * Every currency already in the history is written too, so one whose last paid member left reads 0 from here on.
 */
export function recordMrr(db: Db, now: number) {
  const t = schema.memberMrrMonths;
  return db
    .insert(t)
    .select(
      sql`select ${monthOf(now)}, c.currency, coalesce(p.mrr, 0), ${now}
      from (
        select currency from members where ${PAYING} and currency is not null
        union select currency from member_mrr_months
      ) as c
      left join (
        select currency, ${MRR_OF_PAID} as mrr from members
        where ${PAYING} and amount is not null and currency is not null
        group by currency
      ) as p on p.currency = c.currency
      where true`,
    )
    .onConflictDoUpdate({
      target: [t.month, t.currency],
      set: { mrr: sql`excluded.mrr`, updatedAt: sql`excluded.updated_at` },
    });
}

export interface MrrMonth {
  month: string;
  /** MRR in minor units per lower-case ISO currency. */
  currencies: Record<string, number>;
}

/**
 * The two reads of the history for the months `first`..`last` ("YYYY-MM"), to run in a batch: the rows inside,
 * and each currency's last row before `first` (the value carried into the window).
 */
export function mrrReads(db: Db, first: string, last: string) {
  const t = schema.memberMrrMonths;
  return [
    db
      .select({ month: t.month, currency: t.currency, mrr: t.mrr })
      .from(t)
      .where(and(gte(t.month, first), lte(t.month, last))),
    db
      .select({ month: t.month, currency: t.currency, mrr: t.mrr })
      .from(t)
      .where(
        and(
          lt(t.month, first),
          sql`${t.month} = (select max(b.month) from member_mrr_months b where b.currency = ${t.currency} and b.month < ${first})`,
        ),
      ),
  ] as const;
}

/** Month by month: a month without a row carries the month before's value; before a currency's first row, 0. */
export function mrrMonths(
  months: string[],
  inside: { month: string; currency: string; mrr: number }[],
  before: { currency: string; mrr: number }[],
): MrrMonth[] {
  const current = new Map<string, number>(before.map((r) => [r.currency, r.mrr]));
  for (const r of inside) if (!current.has(r.currency)) current.set(r.currency, 0);
  const currencies = [...current.keys()].sort();
  return months.map((month) => {
    for (const r of inside) if (r.month === month) current.set(r.currency, r.mrr);
    return { month, currencies: Object.fromEntries(currencies.map((c) => [c, current.get(c) ?? 0])) };
  });
}
