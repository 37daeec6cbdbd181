import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DashboardHeader } from "#app/components/DashboardHeader.tsx";
import { MembersSection } from "#app/components/MembershipAdmin.tsx";
import { MoneyOverTime, MrrOverTime } from "#app/components/MembershipMoney.tsx";
import { Field, FormError, SubmitButton, TextArea } from "#app/components/form.tsx";
import { samePage } from "#app/lib/admin.server.ts";
import { dashboardMeta } from "#app/lib/dashboard.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, loadOr404, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { adminOrForbidden } from "#app/lib/guards.server.ts";
import { formatMoney, minorUnit } from "#app/lib/money.ts";
import { MEMBER_STATUSES } from "#drizzle/schema.ts";

export const handle = { title: "Memberships" };

export const meta: MetaFunction = ({ matches }) => dashboardMeta("Memberships", matches);

const MEMBERS_PER_PAGE = 20;

/**
 * Admins: the tiers (create, change, archive), the counts of paid, comped and free accounts, MRR per currency (now
 * and month by month), and the members (a page at a time, by state or address), with comps given and taken back.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const { members } = context.services;
  const url = new URL(request.url);
  const status = MEMBER_STATUSES.find((s) => s === url.searchParams.get("status")) ?? "";
  const q = url.searchParams.get("q") ?? "";
  return {
    enabled: members.enabled(),
    tiers: await members.tiers.list({ archived: true }),
    stats: await members.admin.stats(admin),
    list: await loadOr404(() =>
      members.admin.list(admin, { status, q, page: url.searchParams.get("page"), limit: MEMBERS_PER_PAGE }),
    ),
    status,
    q,
  };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const admin = adminOrForbidden(context, request);
  const form = await readForm(request);
  const { tiers } = context.services.members;
  const fields = () => ({
    name: form.get("name"),
    description: form.get("description"),
    benefits: form.get("benefits"),
    monthly_price: form.get("monthly_price"),
    yearly_price: form.get("yearly_price"),
    trial_days: form.get("trial_days") || 0,
  });
  const done = (title: string) =>
    redirectWithFlash("/dashboard/memberships", { kind: "toast", title, icon: "success" });
  const { admin: people } = context.services.members;
  return handleForm(request, form, async () => {
    const id = String(form.get("id") ?? "");
    switch (form.get("intent")) {
      case "comp": {
        const userId = await people.accountByEmail(admin, form.get("email"));
        await people.comp(admin, userId, { tier_id: form.get("tier_id"), until: form.get("until") || undefined });
        return redirectWithFlash(samePage(request), { kind: "toast", title: "Membership given", icon: "success" });
      }
      case "uncomp":
        await people.uncomp(admin, id);
        return redirectWithFlash(samePage(request), { kind: "toast", title: "Comp ended", icon: "success" });
      case "create":
        await tiers.create(admin, { ...fields(), currency: form.get("currency") });
        return done("Tier created");
      case "update":
        await tiers.update(admin, id, fields());
        return done("Tier saved");
      case "archive":
        await tiers.archive(admin, id);
        return done("Tier archived");
      default:
        return unknownAction(form);
    }
  });
}

const money = (amounts: Record<string, number>) =>
  Object.entries(amounts)
    .map(([currency, minor]) => formatMoney(minor, currency))
    .join(", ") || "0";

export default function Memberships() {
  const { enabled, tiers, stats, list, status, q } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return (
    <>
      <DashboardHeader title="Memberships" description="Paid plans for members' posts, billed by Stripe." />
      {!enabled ? (
        <div
          className="mb-6 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
          data-stripe-off=""
        >
          Memberships are off: Stripe is not set up. Set the secrets with{" "}
          <code>npx wrangler secret put STRIPE_SECRET_KEY</code> and{" "}
          <code>npx wrangler secret put STRIPE_WEBHOOK_SECRET</code>, and point a Stripe webhook at{" "}
          <code>/api/stripe/webhook</code> (README, &ldquo;Paid memberships&rdquo;).
        </div>
      ) : null}
      <dl className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {(
          [
            ["Paid", stats.counts.paid],
            ["Comped", stats.counts.comped],
            ["Free", stats.counts.free],
            ["MRR", money(stats.mrr)],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
            <dt className="text-xs font-semibold uppercase tracking-wide text-gray-500">{label}</dt>
            <dd className="mt-1 text-2xl font-bold text-ink" data-stat={label}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <MrrOverTime months={stats.mrr_months} />
      <MoneyOverTime months={stats.months} posts={stats.posts} />
      {failure && "formError" in failure ? <FormError message={failure.formError} /> : null}
      <ul className="space-y-4">
        {tiers.map((tier) => (
          <li key={tier._id} className="rounded-2xl border border-gray-200 bg-white p-4">
            <Form method="post" className="grid gap-3 sm:grid-cols-2">
              <input type="hidden" name="id" value={tier._id} />
              <Field label="Name" name="name" defaultValue={tier.name} />
              <Field label="Description" name="description" defaultValue={tier.description} />
              <Field
                label={`Monthly (${tier.currency}, ${minorUnit(tier.currency)})`}
                name="monthly_price"
                type="number"
                defaultValue={tier.monthly_price}
              />
              <Field
                label={`Yearly (${tier.currency}, ${minorUnit(tier.currency)})`}
                name="yearly_price"
                type="number"
                defaultValue={tier.yearly_price}
              />
              <Field label="Trial days" name="trial_days" type="number" defaultValue={tier.trial_days} />
              <TextArea label="Benefits (one a line)" name="benefits" defaultValue={tier.benefits.join("\n")} />
              <div className="flex gap-2">
                {tier.archived ? (
                  <span className="text-sm font-semibold text-gray-500">Archived: no new sign-ups</span>
                ) : (
                  <>
                    <SubmitButton name="intent" value="update" pendingText="Saving…">
                      Save
                    </SubmitButton>
                    <SubmitButton tone="secondary" name="intent" value="archive" pendingText="Archiving…">
                      Archive
                    </SubmitButton>
                  </>
                )}
              </div>
            </Form>
          </li>
        ))}
      </ul>
      {enabled ? (
        <Form method="post" className="mt-8 grid gap-3 rounded-2xl border border-gray-200 bg-white p-4 sm:grid-cols-2">
          <h2 className="text-lg font-bold sm:col-span-2">New tier</h2>
          <input type="hidden" name="intent" value="create" />
          <Field label="Name" name="name" required />
          <Field label="Currency" name="currency" defaultValue="usd" required />
          <Field
            label="Monthly price (cents)"
            name="monthly_price"
            type="number"
            required
            hint="In the currency's smallest unit, as Stripe takes it: cents (500 is $5.00); whole yen or won for JPY or KRW."
          />
          <Field label="Yearly price (cents)" name="yearly_price" type="number" required />
          <Field label="Trial days" name="trial_days" type="number" defaultValue={0} />
          <Field label="Description" name="description" />
          <TextArea label="Benefits (one a line)" name="benefits" />
          <div>
            <SubmitButton pendingText="Creating…">Create tier</SubmitButton>
          </div>
        </Form>
      ) : null}

      <MembersSection list={list} status={status} q={q} tiers={tiers} />
    </>
  );
}
