import { z } from "zod";
import type { Env } from "#worker/env.ts";

/**
 * The Worker's configuration, read from the environment once and checked: the only reader of `env`'s
 * variables (bindings such as DB and the queues are read where they are used). A bad value fails with
 * a message that names the variable, instead of every reader guessing a fallback of its own.
 */

/** The brand when SITE_NAME is unset or blank. */
export const DEFAULT_SITE_NAME = "Edge Blog";
const DEFAULT_OWNER_NAME = "Your Name";
/** Analytics rollups are kept two years unless ANALYTICS_RETENTION_DAYS says otherwise. */
export const DEFAULT_RETENTION_DAYS = 730;

const text = z
  .string()
  .optional()
  .transform((v) => v?.trim() ?? "");
const flag = (name: string) =>
  text
    .refine((v) => ["", "true", "false"].includes(v), `${name} must be "true", "false" or unset.`)
    .transform((v) => v === "true");

const origin = text.transform((v, ctx) => {
  if (!v) return null;
  try {
    const url = new URL(v);
    if (url.protocol === "https:" || url.protocol === "http:") return url.origin;
  } catch {
    // reported below
  }
  ctx.addIssue({
    code: "custom",
    message: "SITE_URL must be an http(s) URL such as https://blog.example.com.",
  });
  return z.NEVER;
});

const schema = z.object({
  SESSION_SECRET: text.refine((v) => v.length >= 32, {
    message: "SESSION_SECRET must be set to at least 32 characters (npx wrangler secret put SESSION_SECRET).",
  }),
  SITE_URL: origin,
  SITE_NAME: text.transform((v) => v || DEFAULT_SITE_NAME),
  OWNER_NAME: text.transform((v) => v || DEFAULT_OWNER_NAME),
  MAIL_FROM: text.refine((v) => v === "" || /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(v), {
    message: "MAIL_FROM must be an email address on a domain onboarded to Email Service.",
  }),
  ADMIN_EMAILS: text.transform((v) =>
    v
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  ),
  GOOGLE_CLIENT_ID: text,
  GOOGLE_CLIENT_SECRET: text,
  AP_SITE_HANDLE: text.transform((v) => (v || "site").toLowerCase()),
  FEDERATION_ALLOW_PRIVATE: flag("FEDERATION_ALLOW_PRIVATE"),
  IMPORT_ALLOW_PRIVATE_HOSTS: flag("IMPORT_ALLOW_PRIVATE_HOSTS"),
  ANALYTICS_BENCH_HOOKS: flag("ANALYTICS_BENCH_HOOKS"),
  STRIPE_SECRET_KEY: text.refine((v) => v === "" || /^(sk|rk)_(test|live)_\w+$/.test(v), {
    message: "STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_live_…, sk_test_… or rk_…).",
  }),
  STRIPE_WEBHOOK_SECRET: text.refine((v) => v === "" || /^whsec_\w+$/.test(v), {
    message: "STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_…).",
  }),
  STRIPE_API_BASE: text.transform((v, ctx) => {
    if (!v) return null;
    try {
      const url = new URL(v);
      if (url.protocol === "https:" || url.protocol === "http:")
        return {
          host: url.hostname,
          port: Number(url.port) || (url.protocol === "https:" ? 443 : 80),
          protocol: url.protocol.slice(0, -1) as "http" | "https",
        };
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: "STRIPE_API_BASE must be an http(s) URL such as http://127.0.0.1:12111." });
    return z.NEVER;
  }),
  ANALYTICS_RETENTION_DAYS: text.transform((v, ctx) => {
    if (!v) return DEFAULT_RETENTION_DAYS;
    const days = Number(v);
    if (Number.isInteger(days) && days >= 1) return days;
    ctx.addIssue({ code: "custom", message: "ANALYTICS_RETENTION_DAYS must be a whole number of days (1 or more)." });
    return z.NEVER;
  }),
});

export interface Config {
  sessionSecret: string;
  /** The public origin (production sets it); null locally, where links follow the request. */
  siteUrl: string | null;
  siteName: string;
  ownerName: string;
  /** The sender of every mail; null when unset (the mailer then sends nothing and says why). */
  mailFrom: string | null;
  adminEmails: string[];
  /** Google sign-in, when both halves are set. */
  google: { clientId: string; clientSecret: string } | null;
  federation: { siteHandle: string; allowPrivate: boolean };
  imports: { allowPrivateHosts: boolean };
  /** benchHooks: `POST /api/analytics/bench` may queue synthetic hits (ANALYTICS_BENCH_HOOKS, only for `npm run bench:analytics`). */
  analytics: { retentionDays: number; benchHooks: boolean };
  /**
   * Paid memberships (worker/services/members/), on when both Stripe secrets are set; null: off (checkout
   * answers 503). `api` is where the SDK sends its requests: Stripe's own API unless STRIPE_API_BASE names
   * a local stand-in.
   */
  stripe: {
    secretKey: string;
    webhookSecret: string;
    api: { host: string; port: number; protocol: "http" | "https" } | null;
  } | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The Worker's configuration is invalid: ${problems.join(" ")}`);
    this.name = "ConfigError";
  }
}

export function parseConfig(env: Partial<Record<keyof z.input<typeof schema>, string>>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message));
  const v = parsed.data;
  // A stand-in for Stripe is for local runs and tests (README, "Paid memberships"): never with live money.
  if (v.STRIPE_API_BASE && /^(sk|rk)_live_/.test(v.STRIPE_SECRET_KEY))
    throw new ConfigError([
      "STRIPE_API_BASE is for local runs and tests only: unset it, or use a test key (sk_test_…).",
    ]);
  return {
    sessionSecret: v.SESSION_SECRET,
    siteUrl: v.SITE_URL,
    siteName: v.SITE_NAME,
    ownerName: v.OWNER_NAME,
    mailFrom: v.MAIL_FROM || null,
    adminEmails: v.ADMIN_EMAILS,
    google:
      v.GOOGLE_CLIENT_ID && v.GOOGLE_CLIENT_SECRET
        ? { clientId: v.GOOGLE_CLIENT_ID, clientSecret: v.GOOGLE_CLIENT_SECRET }
        : null,
    federation: { siteHandle: v.AP_SITE_HANDLE, allowPrivate: v.FEDERATION_ALLOW_PRIVATE },
    imports: { allowPrivateHosts: v.IMPORT_ALLOW_PRIVATE_HOSTS },
    analytics: { retentionDays: v.ANALYTICS_RETENTION_DAYS, benchHooks: v.ANALYTICS_BENCH_HOOKS },
    stripe:
      v.STRIPE_SECRET_KEY && v.STRIPE_WEBHOOK_SECRET
        ? { secretKey: v.STRIPE_SECRET_KEY, webhookSecret: v.STRIPE_WEBHOOK_SECRET, api: v.STRIPE_API_BASE }
        : null,
  };
}

const VARIABLES = Object.keys(schema.shape) as (keyof z.input<typeof schema>)[];

/**
 * Parsed once per distinct set of values: a request's env is often a copy (the D1 session swaps DB), so
 * the values, not the object, are the key. An isolate sees one set in production; tests a few.
 */
const parsed = new Map<string, Config>();

export function configOf(env: Env): Config {
  const values = env as unknown as Record<string, string | undefined>;
  const key = VARIABLES.map((k) => values[k] ?? "").join("\u0000");
  let config = parsed.get(key);
  if (!config) {
    config = parseConfig(Object.fromEntries(VARIABLES.map((k) => [k, values[k]])));
    if (parsed.size > 32) parsed.clear();
    parsed.set(key, config);
  }
  return config;
}
