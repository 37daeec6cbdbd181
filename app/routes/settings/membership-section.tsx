import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "#app/components/form.tsx";
import { formatMoney } from "#app/lib/money.ts";
import type { MyMembership } from "#worker/services/members/model.ts";
import { Section, type Failure } from "./sections.tsx";

/** The reader's plan: what it is, when it renews or ends, and the ways to change it (cancel, resume, Stripe's portal). */
export function MembershipSection({ plan, failure }: { plan: MyMembership; failure: Failure }) {
  const until = plan.current_period_end
    ? new Date(plan.current_period_end).toLocaleDateString("en-US", { dateStyle: "long" })
    : null;
  const price = plan.tier ? (plan.cadence === "year" ? plan.tier.yearly_price : plan.tier.monthly_price) : 0;
  return (
    <Section id="membership" title="Membership" description="Your plan for members' posts.">
      {failure ? <p className="text-sm text-red-700">{failure.formError}</p> : null}
      {plan.status === "free" ? (
        <p className="text-sm text-gray-700">
          You are on the free plan.{" "}
          <Link to="/membership" className="font-semibold text-brand-700 underline">
            See the plans
          </Link>
        </p>
      ) : plan.status === "comped" ? (
        <p className="text-sm text-gray-700" data-plan="comped">
          {plan.tier?.name ?? "Membership"}, given by the site
          {plan.comp_until
            ? ` until ${new Date(plan.comp_until).toLocaleDateString("en-US", { dateStyle: "long" })}`
            : ""}
          .
        </p>
      ) : (
        <div className="space-y-3 text-sm text-gray-700" data-plan="paid">
          <p>
            <strong>{plan.tier?.name}</strong>, {plan.tier ? formatMoney(price, plan.tier.currency) : ""} a{" "}
            {plan.cadence}.{" "}
            {until ? (plan.cancel_at_period_end ? `Cancelled: access ends on ${until}.` : `Renews on ${until}.`) : null}
          </p>
          <div className="flex flex-wrap gap-2">
            <Form method="post" action="/settings#membership">
              <SubmitButton
                tone="secondary"
                name="intent"
                value={plan.cancel_at_period_end ? "membership-resume" : "membership-cancel"}
                pendingText="Saving…"
              >
                {plan.cancel_at_period_end ? "Resume membership" : "Cancel membership"}
              </SubmitButton>
            </Form>
            <Form method="post" action="/settings#membership">
              <SubmitButton tone="secondary" name="intent" value="membership-portal" pendingText="Opening…">
                Manage billing
              </SubmitButton>
            </Form>
          </div>
        </div>
      )}
    </Section>
  );
}
