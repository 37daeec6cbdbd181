import { parse, parseSigned, serialize, serializeSigned, type CookieOptions } from "hono/utils/cookie";
import { clientAddressKey } from "#worker/services/client-address.ts";
import type { SessionDevice } from "#worker/services/accounts/sessions.ts";
import type { Client } from "#worker/services/accounts/model.ts";
import { SESSION_TTL_SECONDS } from "#worker/auth/tokens.ts";

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

/**
 * The session cookie. `__Host-`: the browser keeps it only if it is Secure, Path=/ and has no Domain,
 * so no sibling subdomain can set or shadow it (no session fixation by cookie tossing).
 */
export const SESSION_COOKIE = "__Host-session";
/** The name the session cookie had before `__Host-`: never read, expired when a browser still sends it. */
export const LEGACY_SESSION_COOKIE = "session";

/** The session cookie: the JWT is signed already, so the cookie itself is plain. */
export function sessionCookie(token: string, maxAge = SESSION_TTL_SECONDS): string {
  return cookieHeader(SESSION_COOKIE, token, { maxAge });
}

export function clearSessionCookie(): string {
  return expiredCookieHeader(SESSION_COOKIE);
}

/** A cookie's name as loosely as any parser might read it: no spaces, no case, no prefix, no %-escapes. */
function looseName(raw: string): string {
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // not %-encoded: keep it as it is
  }
  return name
    .replace(/[\s"']/g, "")
    .toLowerCase()
    .replace(/^(?:__host-|__secure-)/, "");
}

export interface RequestSession {
  /** The request carries a session in some spelling (a Bearer header, or any cookie that reads as `session`). */
  signedIn: boolean;
  /** The request carries a flash message waiting to be shown (also personal). */
  flash: boolean;
  /** The token to check: the Bearer token, else the exact `__Host-session` cookie; never a look-alike. */
  token: string | null;
}

/**
 * THE one function that decides "this request is signed in", and the only session cookie reader.
 * The cache rule (worker/cache/policy.ts) and the session middleware (worker/app.ts) both call it:
 * anything that any cookie parser could take for a session (`session =x`, `Session=x`, `__Host-session`,
 * `__Secure-session`, `%73ession`) makes the request personal, so it is never answered from, nor
 * stored as, a shared copy; but only the exact `__Host-session` (or a Bearer header) is read as a token.
 */
export function sessionOf(request: Request): RequestSession {
  let signedIn = false;
  let flash = false;
  let token: string | null = null;
  const auth = request.headers.get("Authorization");
  if (auth !== null) {
    signedIn = true;
    token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? null;
  }
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(/[;,]/)) {
    const eq = part.indexOf("=");
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const name = looseName(rawName);
    if (name === "session") {
      signedIn = true;
      if (auth === null && token === null && rawName.trim() === SESSION_COOKIE) {
        const value = part
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, "$1");
        token = value || null;
      }
    } else if (name === FLASH_COOKIE) {
      flash = true;
    }
  }
  return { signedIn, flash, token };
}

/** The token a request carries: `Authorization: Bearer` first (the REST clients), then the cookie (pages). */
export function readToken(request: Request): string | null {
  return sessionOf(request).token;
}

export const FLASH_COOKIE = "flash";
export const FLASH_MAX_AGE = 60;

/**
 * A message to show once on the next page: a SweetAlert2 toast or dialog with JS, and a notice on the page
 * that stays until the person dismisses it (with or without JS). `links` are ways on from it (same-site paths).
 */
export interface Flash {
  kind: "toast" | "alert";
  title: string;
  text?: string;
  icon?: "success" | "error" | "warning" | "info";
  links?: { label: string; href: string }[];
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
/**
 * The only paths that read the device cookie (the password checks): the sign-in page (its no-JS post
 * and its single-fetch `.data` post), the sign-in call and /api/jwt. Anywhere else it would only make a
 * returning reader's request look personal to a cache that varies on Cookie.
 */
export const DEVICE_PATHS = ["/login", "/login.data", "/api/auth/login", "/api/jwt"] as const;

/**
 * Marks this browser as one the account signed in from (signed): its owner is never locked out by
 * strangers. One cookie per reading path, and the old site-wide one (Path=/) expired.
 */
export async function knownDeviceCookies(userId: string, secret: string): Promise<string[]> {
  const scoped = await Promise.all(
    DEVICE_PATHS.map((path) => signedCookieHeader(DEVICE_COOKIE, userId, secret, { maxAge: DEVICE_MAX_AGE, path })),
  );
  return [...scoped, expiredCookieHeader(DEVICE_COOKIE)];
}

/**
 * Every Set-Cookie a new session sends, whichever way the person signed in (password, registration, a
 * passkey, Google): the session itself, and the device cookies that mark this browser as known.
 */
export async function setSessionCookies(token: string, userId: string, secret: string): Promise<string[]> {
  return [sessionCookie(token), ...(await knownDeviceCookies(userId, secret))];
}

/** Where a request comes from, for the session it opens: the browser and Cloudflare's idea of its place. */
export function deviceOf(request: Request): SessionDevice {
  const cf = (request as Request & { cf?: Record<string, unknown> }).cf;
  const str = (value: unknown) => (typeof value === "string" && value ? value : null);
  return {
    userAgent: request.headers.get("User-Agent"),
    country: str(cf?.country),
    city: str(cf?.city),
    colo: str(cf?.colo),
  };
}

/** The requester as the sign-in limits see it: the client's address key, the account this browser knows, the device. */
export async function clientOf(request: Request, secret: string): Promise<Client> {
  return {
    address: clientAddressKey(request.headers.get("CF-Connecting-IP")),
    knownUserId: await readSignedCookie(request, DEVICE_COOKIE, secret),
    device: deviceOf(request),
    origin: new URL(request.url).origin,
  };
}
