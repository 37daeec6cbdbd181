import { parse, parseSigned, serialize, serializeSigned, type CookieOptions } from "hono/utils/cookie";
import type { Client } from "../services/users";
import { SESSION_TTL_SECONDS } from "./tokens";

/**
 * Every cookie the site sets goes through here (hono's cookie utilities, plain or HMAC-signed): the
 * session, the flash message, and the Google sign-in flow's state. HttpOnly, Secure and SameSite=Lax
 * unless a caller says otherwise (browsers accept Secure on localhost).
 */
const OURS = { path: "/", httpOnly: true, secure: true, sameSite: "Lax" } as const satisfies CookieOptions;

export function cookieHeader(name: string, value: string, options: CookieOptions = {}): string {
  return serialize(name, value, { ...OURS, ...options });
}

export function expiredCookieHeader(name: string, options: CookieOptions = {}): string {
  return serialize(name, "", { ...OURS, ...options, maxAge: 0 });
}

export function signedCookieHeader(name: string, value: string, secret: string, options: CookieOptions = {}) {
  return serializeSigned(name, value, secret, { ...OURS, ...options });
}

export function readCookie(request: Request, name: string): string | null {
  return parse(request.headers.get("Cookie") ?? "", name)[name] ?? null;
}

/** A signed cookie's value, or null when it is missing or its signature does not match (tampered). */
export async function readSignedCookie(request: Request, name: string, secret: string): Promise<string | null> {
  const value = (await parseSigned(request.headers.get("Cookie") ?? "", secret, name))[name];
  return typeof value === "string" ? value : null;
}

export const SESSION_COOKIE = "session";

/** The session cookie: the JWT is signed already, so the cookie itself is plain. */
export function sessionCookie(token: string, maxAge = SESSION_TTL_SECONDS): string {
  return cookieHeader(SESSION_COOKIE, token, { maxAge });
}

export function clearSessionCookie(): string {
  return expiredCookieHeader(SESSION_COOKIE);
}

/** The token a request carries: `Authorization: Bearer` first (the REST clients), then the cookie (pages). */
export function readToken(request: Request): string | null {
  const auth = request.headers.get("Authorization");
  if (auth) {
    const match = /^Bearer\s+(\S+)$/i.exec(auth);
    return match?.[1] ?? null;
  }
  return readCookie(request, SESSION_COOKIE) || null;
}

export const FLASH_COOKIE = "flash";
export const FLASH_MAX_AGE = 60;

/** A message to show once on the next page: a SweetAlert2 toast with JS, a banner without. */
export interface Flash {
  kind: "toast" | "alert";
  title: string;
  text?: string;
  icon?: "success" | "error" | "warning" | "info";
}

/** A flash as its cookie value: base64 of its JSON (UTF-8), which cookies carry unescaped. */
export function encodeFlash(flash: Flash): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(flash))));
}

/** The signed Set-Cookie of a flash, for answers that do not pass through Remix (the Google callback). */
export function signedFlashCookie(flash: Flash, secret: string): Promise<string> {
  return signedCookieHeader(FLASH_COOKIE, encodeFlash(flash), secret, { maxAge: FLASH_MAX_AGE });
}

/**
 * Pages set their flash message as a plain cookie (app/lib/flash.server.ts); the Worker signs it on
 * the way out, so the message a page later shows is always one the site itself wrote.
 */
export async function sealFlash(response: Response, secret: string): Promise<Response> {
  const cookies = response.headers.getSetCookie();
  const prefix = `${FLASH_COOKIE}=`;
  const index = cookies.findIndex((c) => c.startsWith(prefix) && !c.startsWith(`${prefix};`));
  if (index < 0) return response;
  const value = decodeURIComponent(cookies[index]!.slice(prefix.length).split(";")[0] ?? "");
  cookies[index] = await signedCookieHeader(FLASH_COOKIE, value, secret, { maxAge: FLASH_MAX_AGE });
  const sealed = new Response(response.body, response);
  sealed.headers.delete("Set-Cookie");
  for (const cookie of cookies) sealed.headers.append("Set-Cookie", cookie);
  return sealed;
}

export const DEVICE_COOKIE = "device";
const DEVICE_MAX_AGE = 60 * 60 * 24 * 365;

/** Marks this browser as one the account signed in from (signed): its owner is never locked out by strangers. */
export function knownDeviceCookie(userId: string, secret: string): Promise<string> {
  return signedCookieHeader(DEVICE_COOKIE, userId, secret, { maxAge: DEVICE_MAX_AGE });
}

/** The requester as the sign-in limits see it: the client's address and the account this browser knows. */
export async function clientOf(request: Request, secret: string): Promise<Client> {
  return {
    address: request.headers.get("CF-Connecting-IP"),
    knownUserId: await readSignedCookie(request, DEVICE_COOKIE, secret),
    origin: new URL(request.url).origin,
  };
}
