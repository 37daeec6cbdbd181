import { redirect } from "@remix-run/cloudflare";

/** A message to show once on the next page: a SweetAlert2 toast with JS, a banner without. */
export interface Flash {
  kind: "toast" | "alert";
  title: string;
  text?: string;
  icon?: "success" | "error" | "warning" | "info";
}

const FLASH_COOKIE = "flash";

function encode(flash: Flash): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(flash))));
}

export function flashCookie(flash: Flash): string {
  return `${FLASH_COOKIE}=${encode(flash)}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=60`;
}

export const clearFlashCookie = `${FLASH_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;

/** The pending flash of a request, if any (malformed cookies are ignored). */
export function readFlash(request: Request): Flash | null {
  const header = request.headers.get("Cookie") ?? "";
  const raw = header
    .split(";")
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${FLASH_COOKIE}=`))
    ?.slice(FLASH_COOKIE.length + 1);
  if (!raw) return null;
  try {
    const bytes = Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Flash>;
    if ((value.kind === "toast" || value.kind === "alert") && typeof value.title === "string") {
      return { kind: value.kind, title: value.title.slice(0, 200), text: value.text?.slice(0, 500), icon: value.icon };
    }
  } catch {
    // a tampered or truncated cookie is just no message
  }
  return null;
}

/** Redirect and show `flash` on the page it lands on. Extra Set-Cookie headers (a session) may ride along. */
export function redirectWithFlash(to: string, flash: Flash, setCookies: string[] = []) {
  const headers = new Headers();
  for (const cookie of [...setCookies, flashCookie(flash)]) headers.append("Set-Cookie", cookie);
  return redirect(to, { headers });
}
