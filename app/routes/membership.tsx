import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import { buttonClass, Container } from "#app/components/ui.tsx";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { formatMoney } from "#app/lib/money.ts";
import { brandOf } from "#app/lib/site-name.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: `Membership | ${brandOf(matches)}` }];

/** The plans, the reader's own (when signed in), and a join button per plan and cadence (Stripe Checkout). */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { members } = context.services;
  const url = new URL(request.url);
  return {
    enabled: members.enabled(),
    tiers: await members.tiers.list(),
    plan: context.user ? await members.billing.me(context.user) : null,
    from: url.searchParams.get("from") ?? "",
    joined: url.searchParams.get("joined") === "1",
  };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const { url } = await context.services.members.billing.checkout(user, {
      tier_id: form.get("tier_id"),
      cadence: form.get("cadence"),
      post_id: form.get("from") || undefined,
    });
    return redirect(url);
  });
}

export default function Membership() {
  const { enabled, tiers, plan, from, joined } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return (
    <Container width="4xl" className="py-12">
      <h1 className="text-3xl font-extrabold text-ink">Membership</h1>
      <p className="mt-2 text-gray-700">Members read every post in full and keep this site going.</p>
      {joined ? (
        <p className="mt-4 rounded-lg bg-green-50 p-3 text-green-800">
          Thank you! Your membership starts as soon as the payment is confirmed.
        </p>
      ) : null}
      {plan && plan.status !== "free" ? (
        <p className="mt-4 text-gray-800" data-plan={plan.status}>
          Your plan: <strong>{plan.tier?.name}</strong>.{" "}
          <Link to="/settings#membership" className="text-brand-700 underline">
            Manage it in your settings
          </Link>
        </p>
      ) : null}
      {failure && "formError" in failure ? <FormError message={failure.formError} /> : null}
      {!enabled || tiers.length === 0 ? <p className="mt-8 text-gray-700">There are no paid plans yet.</p> : null}
      <ul className="mt-8 grid gap-6 sm:grid-cols-2">
        {/* Free membership is an account: it reads members' posts (not paid ones), comments and follows. */}
        <li className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm" data-tier="free">
          <h2 className="text-xl font-bold text-ink">Free</h2>
          <p className="mt-1 text-gray-700">An account on this site.</p>
          <ul className="mt-3 list-disc pl-5 text-sm text-gray-700">
            <li>Posts for signed-in members</li>
            <li>Comments, likes and a reading list</li>
          </ul>
          {!plan ? (
            <Link to="/register" className={`${buttonClass({ tone: "secondary" })} mt-4 inline-block`}>
              Create an account
            </Link>
          ) : plan.status === "free" ? (
            <p className="mt-4 font-semibold text-green-700">Your plan</p>
          ) : null}
        </li>
        {(enabled ? tiers : []).map((tier) => (
          <li key={tier._id} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm" data-tier={tier._id}>
            <h2 className="text-xl font-bold text-ink">{tier.name}</h2>
            {tier.description ? <p className="mt-1 text-gray-700">{tier.description}</p> : null}
            <ul className="mt-3 list-disc pl-5 text-sm text-gray-700">
              {tier.benefits.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
            {tier.trial_days > 0 ? (
              <p className="mt-2 text-sm text-gray-600">{tier.trial_days} days free first.</p>
            ) : null}
            {plan?.status === "paid" && plan.tier?._id === tier._id ? (
              <p className="mt-4 font-semibold text-green-700">Your plan</p>
            ) : (
              <div className="mt-4 flex flex-wrap gap-2">
                {(["month", "year"] as const).map((cadence) => (
                  <Form method="post" key={cadence}>
                    <input type="hidden" name="tier_id" value={tier._id} />
                    <input type="hidden" name="cadence" value={cadence} />
                    <input type="hidden" name="from" value={from} />
                    <SubmitButton tone={cadence === "month" ? "primary" : "secondary"} pendingText="Opening checkout…">
                      {formatMoney(cadence === "month" ? tier.monthly_price : tier.yearly_price, tier.currency)} a{" "}
                      {cadence}
                    </SubmitButton>
                  </Form>
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </Container>
  );
}
