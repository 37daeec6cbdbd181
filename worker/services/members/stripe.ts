import Stripe from "stripe";
import type { Config } from "#worker/config.ts";

/**
 * The one Stripe client, made per request from the configuration (no module state): the SDK's fetch HTTP
 * client (Workers have no Node http), sent to STRIPE_API_BASE when a local stand-in is configured.
 */
export function createStripe(stripe: NonNullable<Config["stripe"]>): Stripe {
  return new Stripe(stripe.secretKey, {
    // Read the global fetch at each call, not once: tests stub it with vi.spyOn(globalThis, "fetch").
    httpClient: Stripe.createFetchHttpClient((input, init) => fetch(input, init)),
    maxNetworkRetries: 1,
    telemetry: false,
    ...(stripe.api ?? {}),
  });
}

/**
 * Stripe as the members' services reach it: the one client, made on first use, and the webhook's signing
 * secret. Both throw Unavailable (503) while Stripe's secrets are unset (service.ts makes it).
 */
export interface StripeAccess {
  client(): Stripe;
  webhookSecret(): string;
}

/** Webhook signatures are checked with SubtleCrypto (Workers have no node:crypto HMAC in the SDK's worker build). */
export const webhookCrypto = Stripe.createSubtleCryptoProvider();

/** Stripe's default signature tolerance, said out loud: an event signed more than 5 minutes ago is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type { Stripe };
