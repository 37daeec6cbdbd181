/**
 * Google sign-in from a page: the spec's 500 by 600 popup, which hands its result back with
 * postMessage and closes (see worker/auth/routes.ts), or a full-page redirect when popups are blocked.
 * Browser-only; import it from event handlers, never from a loader.
 */

export type GoogleIntent = "login" | "register";

export type GoogleAuthResult =
  | { ok: true; isNewUser: boolean; intent: GoogleIntent; redirectTo: string }
  | { ok: false; code: string; message: string };

export interface GooglePopupOptions {
  intent?: GoogleIntent;
  /** A path on this site to land on afterwards; the server ignores anything else. */
  redirectTo?: string;
}

const POPUP_NAME = "google-signin";
const WIDTH = 500;
const HEIGHT = 600;
// How long to wait for a message that may still be in flight when the popup is seen closed.
const CLOSE_GRACE_MS = 300;

export function googleSignInUrl(
  mode: "popup" | "redirect",
  { intent = "login", redirectTo = "/" }: GooglePopupOptions = {},
) {
  const params = new URLSearchParams({ mode, intent, redirectTo });
  return `/auth/google?${params.toString()}`;
}

function popupFeatures(): string {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - WIDTH) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - HEIGHT) / 2));
  return `width=${WIDTH},height=${HEIGHT},left=${left},top=${top},resizable=yes,scrollbars=yes`;
}

function isAuthMessage(data: unknown): data is { type: "auth:google" } & GoogleAuthResult {
  if (typeof data !== "object" || data === null) return false;
  const d = data as Record<string, unknown>;
  return d.type === "auth:google" && typeof d.ok === "boolean";
}

/** The sign-in in progress, so that a second click can cancel it (the popup window is reused by name). */
let pending: ((result: GoogleAuthResult) => void) | null = null;

export function openGooglePopup(options: GooglePopupOptions = {}): Promise<GoogleAuthResult> {
  pending?.({ ok: false, code: "cancelled-popup-request", message: "A newer Google sign-in replaced this one." });

  const popup = window.open(googleSignInUrl("popup", options), POPUP_NAME, popupFeatures());
  if (!popup) {
    window.location.assign(googleSignInUrl("redirect", options));
    return Promise.resolve({
      ok: false,
      code: "popup-blocked",
      message: "The sign-in window was blocked, so Google sign-in continues in this tab.",
    });
  }
  popup.focus();

  return new Promise<GoogleAuthResult>((resolve) => {
    let settled = false;
    let grace: ReturnType<typeof setTimeout> | undefined;

    const finish = (result: GoogleAuthResult) => {
      if (settled) return;
      settled = true;
      window.removeEventListener("message", onMessage);
      clearInterval(poll);
      clearTimeout(grace);
      if (pending === finish) pending = null;
      resolve(result);
    };

    function onMessage(event: MessageEvent) {
      // Only our own page, in our own popup, speaks for the sign-in.
      if (event.origin !== window.location.origin || event.source !== popup) return;
      if (!isAuthMessage(event.data)) return;
      const { type: _type, ...result } = event.data;
      finish(result as GoogleAuthResult);
    }

    const poll = setInterval(() => {
      if (settled || grace !== undefined || !popup.closed) return;
      grace = setTimeout(
        () => finish({ ok: false, code: "popup-closed-by-user", message: "The Google sign-in window was closed." }),
        CLOSE_GRACE_MS,
      );
    }, 500);

    window.addEventListener("message", onMessage);
    pending = finish;
  });
}
