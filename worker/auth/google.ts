import { ArcticFetchError, Google, decodeIdToken, generateCodeVerifier, generateState } from "arctic";
import { z } from "zod";
import type { Env } from "#worker/env.ts";
import type { GoogleIdentity } from "#worker/services/accounts/google.ts";

export const GOOGLE_CALLBACK_PATH = "/auth/google/callback";
export const GOOGLE_SCOPES = ["openid", "profile", "email"];
const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"] as const;

/** What can go wrong in the flow itself (the account rules' errors come from the service). */
export const GOOGLE_FLOW_ERRORS = {
  "google-not-configured": {
    status: 503,
    message: "Google sign-in is not configured on this site. Please sign in with your email and password.",
  },
  "state-mismatch": {
    status: 400,
    message: "This Google sign-in has expired or was not started from this browser. Please start signing in again.",
  },
  "access-denied": {
    status: 403,
    message: "Google sign-in was cancelled, so you have not been signed in.",
  },
  "google-error": {
    status: 502,
    message: "Google could not complete the sign-in. Please try again.",
  },
  "network-request-failed": {
    status: 502,
    message: "We could not reach Google to finish signing you in. Please check your connection and try again.",
  },
  "internal-error": {
    status: 500,
    message: "Something went wrong on our side while signing you in with Google. Please try again.",
  },
} as const;

export type GoogleFlowErrorCode = keyof typeof GOOGLE_FLOW_ERRORS;

export class GoogleFlowError extends Error {
  readonly status: number;
  constructor(
    readonly code: GoogleFlowErrorCode,
    options?: { cause?: unknown },
  ) {
    super(GOOGLE_FLOW_ERRORS[code].message, options);
    this.status = GOOGLE_FLOW_ERRORS[code].status;
  }
}

/**
 * The Google client for this request, or null when no client is configured. The redirect URI follows
 * the origin the person is on, so local, preview and production hosts each work once registered
 * with Google.
 */
export function googleClient(env: Env, requestUrl: string): { google: Google; clientId: string } | null {
  const clientId = env.GOOGLE_CLIENT_ID?.trim();
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) return null;
  const redirectUri = new URL(GOOGLE_CALLBACK_PATH, new URL(requestUrl).origin).toString();
  return { google: new Google(clientId, clientSecret, redirectUri), clientId };
}

/** A fresh state and PKCE verifier, and the Google URL that carries the state and the S256 challenge. */
export function startGoogleFlow(google: Google) {
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const url = google.createAuthorizationURL(state, codeVerifier, GOOGLE_SCOPES);
  // Always show the account chooser: after a sign-out here, people expect to be able to pick another account.
  url.searchParams.set("prompt", "select_account");
  return { state, codeVerifier, url };
}

const claimsSchema = z.object({
  iss: z.enum(GOOGLE_ISSUERS),
  aud: z.union([z.string(), z.array(z.string())]),
  exp: z.number(),
  sub: z.string().min(1).max(255),
  email: z.string().max(254).pipe(z.email()),
  // Google sends a boolean; some older tokens carried the string form.
  email_verified: z
    .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")])
    .optional()
    .default(false),
  name: z.string().optional(),
  picture: z.string().optional(),
});

/**
 * Trades the authorization code for tokens at Google's token endpoint and reads who signed in.
 *
 * The ID token's signature is not checked: it comes straight from Google's token endpoint over TLS,
 * authenticated with our client secret, so its origin is already proven (OpenID Connect Core 3.1.3.7,
 * point 6). Issuer, audience and expiry are still checked, as that section asks.
 */
export async function exchangeGoogleCode(
  client: { google: Google; clientId: string },
  code: string,
  codeVerifier: string,
): Promise<GoogleIdentity> {
  let idToken: string;
  try {
    const tokens = await client.google.validateAuthorizationCode(code, codeVerifier);
    idToken = tokens.idToken();
  } catch (err) {
    if (err instanceof ArcticFetchError) throw new GoogleFlowError("network-request-failed", { cause: err });
    // OAuth2RequestError: Google refused the code (expired, reused, wrong verifier); others: a malformed answer.
    throw new GoogleFlowError("google-error", { cause: err });
  }

  let claims: z.output<typeof claimsSchema>;
  try {
    claims = claimsSchema.parse(decodeIdToken(idToken));
  } catch (err) {
    throw new GoogleFlowError("google-error", { cause: err });
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  // A minute of leeway for clock skew between Google and this Worker.
  if (!audiences.includes(client.clientId) || claims.exp * 1000 < Date.now() - 60_000) {
    throw new GoogleFlowError("google-error");
  }
  return {
    sub: claims.sub,
    email: claims.email,
    emailVerified: claims.email_verified,
    name: claims.name ?? null,
    picture: claims.picture ?? null,
  };
}
