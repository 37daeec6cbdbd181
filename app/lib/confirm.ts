import { safeRedirect } from "#worker/auth/redirect.ts";
import { MSG } from "./messages";

/**
 * The no-JavaScript confirmation step. An ask-first form (ConfirmForm, Sign Out) that has not hydrated
 * is a GET to /confirm carrying the question, the page to post to and the form's own fields; the page
 * asks in the spec's words and posts those fields only when the person confirms.
 */
export const CONFIRM_ASK = "ask";
export const CONFIRM_TO = "to";
/** The signed token the real page put beside its button (worker/security/confirm-token.ts). */
export const CONFIRM_TOKEN = "ct";

export type ConfirmKind = keyof typeof MSG.confirm;

export interface Confirmation {
  kind: ConfirmKind;
  /** Where the confirmed form posts (a path of this site). */
  to: string;
  /** Where Cancel goes: the page the person came from. */
  back: string;
  fields: [string, string][];
  /** The token the link carried (checked by the /confirm loader against the session). */
  token: string | null;
}

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
const MAX_FIELDS = 8;
const MAX_VALUE = 500;

function isKind(value: string | null): value is ConfirmKind {
  return value !== null && Object.hasOwn(MSG.confirm, value);
}

/** The confirmation a /confirm URL asks for, or null when it is not one this site would have made. */
export function readConfirmation(url: URL): Confirmation | null {
  // One of each: a second `ask`, `to` or `ct` is not a link this site makes.
  if ([CONFIRM_ASK, CONFIRM_TO, CONFIRM_TOKEN].some((name) => url.searchParams.getAll(name).length > 1)) return null;
  const kind = url.searchParams.get(CONFIRM_ASK);
  const to = safeRedirect(url.searchParams.get(CONFIRM_TO), "");
  if (!isKind(kind) || !to || new URL(to, url).pathname === url.pathname) return null;
  const fields: [string, string][] = [];
  for (const [name, value] of url.searchParams) {
    if (name === CONFIRM_ASK || name === CONFIRM_TO || name === CONFIRM_TOKEN) continue;
    if (!FIELD_NAME.test(name) || value.length > MAX_VALUE || fields.length === MAX_FIELDS) return null;
    fields.push([name, value]);
  }
  // Sign Out carries the page it was chosen on; every other action posts back to its own page.
  const redirectTo = fields.find(([name]) => name === "redirectTo")?.[1];
  const back = kind === "sign-out" ? safeRedirect(redirectTo) : to;
  return { kind, to, back, fields, token: url.searchParams.get(CONFIRM_TOKEN) };
}
