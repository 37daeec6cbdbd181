import type { Kernel } from "#worker/services/kernel.ts";
import type { Mailer } from "#worker/services/mail/mailer.ts";
import { createMemberAdmin } from "#worker/services/members/admin.ts";
import { createBillingService } from "#worker/services/members/billing.ts";
import { createStripe, type Stripe, type StripeAccess } from "#worker/services/members/stripe.ts";
import { createMemberSync } from "#worker/services/members/sync.ts";
import { createTierService } from "#worker/services/members/tiers.ts";
import { Unavailable } from "#worker/services/shared/errors.ts";

export const MEMBERSHIPS_OFF_TEXT =
  "Paid memberships are not set up on this site yet (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are unset).";

/**
 * Paid memberships (docs/decisions/052): tiers, the reader's plan, Stripe's webhook and the admin's view. Off
 * while Stripe's secrets are unset: every call that needs Stripe answers 503 (Unavailable), reads still work.
 */
export function createMemberService(k: Kernel, deps: { mailer: Mailer }) {
  const config = () => {
    const stripe = k.config.stripe;
    if (!stripe) throw new Unavailable(MEMBERSHIPS_OFF_TEXT, "memberships-off");
    return stripe;
  };
  let client: Stripe | undefined;
  const stripe: StripeAccess = {
    client: () => (client ??= createStripe(config())),
    webhookSecret: () => config().webhookSecret,
  };
  const tiers = createTierService(k, { stripe });
  const sync = createMemberSync(k, { stripe, mailer: deps.mailer });
  return {
    /** Whether Stripe is configured (the admin page says how to turn it on when not). */
    enabled: () => k.config.stripe !== null,
    tiers,
    sync,
    billing: createBillingService(k, { stripe, tiers, sync, mailer: deps.mailer }),
    admin: createMemberAdmin(k, { tiers }),
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
