import { configOf } from "#worker/config.ts";
import type { Db } from "#worker/db.ts";
import type { Env } from "#worker/env.ts";
import type { createMailer } from "#worker/services/mail/mailer.ts";
import { createMemberAdmin } from "#worker/services/members/admin.ts";
import { createBillingService } from "#worker/services/members/billing.ts";
import { createStripe, type Stripe } from "#worker/services/members/stripe.ts";
import { createMemberSync } from "#worker/services/members/sync.ts";
import { createTierService } from "#worker/services/members/tiers.ts";
import { Unavailable } from "#worker/services/shared/errors.ts";

export const MEMBERSHIPS_OFF_TEXT =
  "Paid memberships are not set up on this site yet (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are unset).";

/**
 * Paid memberships (docs/decisions/052): tiers, the reader's plan, Stripe's webhook and the admin's view. Off
 * while Stripe's secrets are unset: every call that needs Stripe answers 503 (Unavailable), reads still work.
 */
export function createMemberService(
  db: Db,
  env: Env,
  deps: {
    mailer: ReturnType<typeof createMailer>;
    origin: string | null;
    onPaid: (payload: { userId: string; tierId: string | null }) => Promise<void>;
  },
) {
  const config = () => {
    const stripe = configOf(env).stripe;
    if (!stripe) throw new Unavailable(MEMBERSHIPS_OFF_TEXT, "memberships-off");
    return stripe;
  };
  let client: Stripe | undefined;
  const stripe = () => (client ??= createStripe(config()));
  const tiers = createTierService(db, stripe);
  const sync = createMemberSync(db, {
    stripe,
    webhookSecret: () => config().webhookSecret,
    mailer: deps.mailer,
    queue: env.MEMBERS_QUEUE,
    origin: deps.origin,
    onPaid: deps.onPaid,
  });
  return {
    /** Whether Stripe is configured (the admin page says how to turn it on when not). */
    enabled: () => configOf(env).stripe !== null,
    tiers,
    sync,
    billing: createBillingService(db, { stripe, tiers, sync, mailer: deps.mailer, origin: deps.origin }),
    admin: createMemberAdmin(db, tiers),
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
