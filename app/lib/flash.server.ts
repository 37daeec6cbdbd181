import { redirect } from "@remix-run/cloudflare";
import {
  cookieHeader,
  encodeFlash,
  expiredCookieHeader,
  FLASH_COOKIE,
  FLASH_MAX_AGE,
  readSignedCookie,
  type Flash,
} from "#worker/auth/cookie.ts";

export type { Flash };

/** The flash as a plain cookie; the Worker signs it on the way out (sealFlash in worker/auth/cookie.ts). */
export function flashCookie(flash: Flash): string {
  return cookieHeader(FLASH_COOKIE, encodeFlash(flash), { maxAge: FLASH_MAX_AGE });
}

export const clearFlashCookie = expiredCookieHeader(FLASH_COOKIE);

/** The pending flash of a request, if any: unsigned, tampered or malformed cookies are no message. */
export async function readFlash(request: Request, secret: string): Promise<Flash | null> {
  const raw = await readSignedCookie(request, FLASH_COOKIE, secret);
  if (!raw) return null;
  try {
    const bytes = Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Flash>;
    if ((value.kind === "toast" || value.kind === "alert") && typeof value.title === "string") {
      const links = (Array.isArray(value.links) ? value.links : [])
        .filter((l) => typeof l?.label === "string" && typeof l?.href === "string" && /^\/(?!\/)/.test(l.href))
        .slice(0, 3)
        .map((l) => ({ label: l.label.slice(0, 60), href: l.href.slice(0, 300) }));
      return {
        kind: value.kind,
        title: value.title.slice(0, 200),
        text: value.text?.slice(0, 500),
        icon: value.icon,
        ...(links.length ? { links } : {}),
      };
    }
  } catch {
    // a truncated cookie is just no message
  }
  return null;
}

/** Redirect and show `flash` on the page it lands on. Extra Set-Cookie headers (a session) may ride along. */
export function redirectWithFlash(to: string, flash: Flash, setCookies: string[] = []) {
  const headers = new Headers();
  for (const cookie of [...setCookies, flashCookie(flash)]) headers.append("Set-Cookie", cookie);
  return redirect(to, { headers });
}
