import { Form, Link } from "@remix-run/react";
import { DataTable, numberColumn } from "#app/components/DataTable.tsx";
import { Field, Select, SubmitButton } from "#app/components/form.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { TableSearch } from "#app/components/TableSearch.tsx";
import type { Page } from "#worker/services/shared/pagination.ts";
import type { MemberListItem } from "#worker/services/members/admin.ts";
import type { Tier } from "#worker/services/members/model.ts";

/** The admin's Dashboard → Memberships, below the tiers: the members with their comps (the money: MembershipMoney). */

const STATUS_WORDS = { "": "Everyone", paid: "Paid", comped: "Comped", free: "Free" } as const;
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

/** The members, by state or address, a page at a time (the one pagination helper), and comps given or ended. */
export function MembersSection({
  list,
  status,
  q,
  tiers,
}: {
  list: Page<MemberListItem>;
  status: string;
  q: string;
  tiers: Tier[];
}) {
  const tierName = (id: string | null) => tiers.find((t) => t._id === id)?.name ?? "";
  const open = tiers.filter((t) => !t.archived);
  return (
    <section aria-labelledby="members-heading" className="mt-10">
      <h2 id="members-heading" className="mb-3 text-xl font-bold text-ink">
        Members
      </h2>
      <nav aria-label="Members by state" className="mb-3 flex flex-wrap gap-2 text-sm">
        {(Object.keys(STATUS_WORDS) as (keyof typeof STATUS_WORDS)[]).map((s) => (
          <Link
            key={s || "all"}
            to={s ? `?status=${s}` : "?"}
            aria-current={s === status ? "page" : undefined}
            className={`rounded-full border px-3 py-1.5 font-semibold ${
              s === status ? "border-brand-600 bg-brand-600 text-white" : "border-gray-300 bg-white text-gray-700"
            }`}
          >
            {STATUS_WORDS[s]}
          </Link>
        ))}
      </nav>
      <TableSearch q={q} label="Search members by email" placeholder="Search by email" />
      <DataTable
        caption="Members"
        rows={list.items}
        rowKey={(m) => m.user_id}
        empty={q || status ? "No member matches." : "No members yet."}
        columns={[
          numberColumn((list.page - 1) * list.limit),
          {
            header: "Member",
            mobile: "title",
            cell: (m) => (
              <span className="block min-w-0">
                <span className="block font-medium text-ink">{m.name}</span>
                <span className="block break-all text-sm text-gray-600">{m.email}</span>
              </span>
            ),
          },
          { header: "State", cell: (m) => <span data-member-status={m.status}>{STATUS_WORDS[m.status]}</span> },
          { header: "Tier", cell: (m) => tierName(m.tier_id) || "—" },
          {
            header: "Until",
            cell: (m) =>
              m.status === "comped"
                ? m.comp_until
                  ? day(m.comp_until)
                  : "No end"
                : m.status === "paid"
                  ? day(m.current_period_end)
                  : "—",
          },
          {
            header: "Comp",
            action: true,
            cell: (m) =>
              m.status === "comped" ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="uncomp" />
                  <input type="hidden" name="id" value={m.user_id} />
                  <SubmitButton tone="secondary" pendingText="Ending…">
                    End comp<span className="sr-only"> of {m.name}</span>
                  </SubmitButton>
                </Form>
              ) : null,
          },
        ]}
      />
      {list.pages > 1 ? (
        <div className="mt-6">
          <Pagination page={list.page} pages={list.pages} label="Members pages" />
        </div>
      ) : null}
      {open.length > 0 ? (
        <Form
          method="post"
          className="mt-8 grid gap-3 rounded-2xl border border-gray-200 bg-white p-4 sm:grid-cols-2"
          aria-labelledby="comp-heading"
        >
          <h3 id="comp-heading" className="text-lg font-bold sm:col-span-2">
            Give a membership
          </h3>
          <p className="text-sm text-gray-700 sm:col-span-2">
            A complimentary plan, free of charge and outside Stripe: the account reads what the tier&apos;s members read
            until the date (or until you end it).
          </p>
          <input type="hidden" name="intent" value="comp" />
          <Field label="Account email" name="email" type="email" required />
          <Select label="Tier" name="tier_id" defaultValue={open[0]!._id}>
            {open.map((t) => (
              <option key={t._id} value={t._id}>
                {t.name}
              </option>
            ))}
          </Select>
          <Field label="Until (optional)" name="until" type="date" />
          <div className="self-end">
            <SubmitButton pendingText="Giving…">Give membership</SubmitButton>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
