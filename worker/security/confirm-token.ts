import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

/**
 * The /confirm step's token. A /confirm link alone must not be able to arm a
 * form: the page that really rendered a Delete, Make Admin, Remove admin or Sign Out button signs what
 * that button asks (the question, the page the confirmed form posts to, and every field it posts) for
 * the session that saw it, for a short while; /confirm renders its form only for a token that matches
 * all of them, and answers 400 to anything else.
 *
 * Synchronous on purpose: the token is made while React renders the button (entry.server hands the
 * render a signer bound to the session, app/lib/confirm-signer.ts), and WebCrypto is async only.
 * HMAC-SHA256 from @noble/hashes (audited, no dependencies), over a key derived from SESSION_SECRET.
 */
export const CONFIRM_TOKEN_SECONDS = 30 * 60;

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function keyOf(secret: string): Uint8Array {
  // A key of its own (domain separation): nothing else signed with SESSION_SECRET can pass as a token.
  return hmac(sha256, encoder.encode(secret), encoder.encode("edge-blog:confirm-step:v1"));
}

/** The exact bytes a token covers: every part length-safe (JSON), the fields in one canonical order. */
function message(sessionId: string, ask: string, to: string, fields: [string, string][], expires: number): string {
  const sorted = [...fields].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return JSON.stringify([sessionId, ask, to, sorted, expires]);
}

function mac(secret: string, text: string): string {
  return base64url(hmac(sha256, keyOf(secret), encoder.encode(text)));
}

export interface ConfirmStep {
  ask: string;
  to: string;
  fields: [string, string][];
}

/** A token for one rendered button: `<expiry seconds>.<mac>`. */
export function signConfirmStep(secret: string, sessionId: string, step: ConfirmStep, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + CONFIRM_TOKEN_SECONDS;
  return `${expires}.${mac(secret, message(sessionId, step.ask, step.to, step.fields, expires))}`;
}

/** Whether `token` was made for exactly this step, for this session, and has not expired. */
export function verifyConfirmStep(
  secret: string,
  sessionId: string | null,
  step: ConfirmStep,
  token: string | null,
  now = Date.now(),
): boolean {
  if (!secret || !sessionId || !token || token.length > 200) return false;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= now || expires * 1000 > now + CONFIRM_TOKEN_SECONDS * 1000 + 60_000) return false;
  const expected = mac(secret, message(sessionId, step.ask, step.to, step.fields, expires));
  // Constant time over the whole MAC.
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ match[2]!.charCodeAt(i);
  return diff === 0;
}
