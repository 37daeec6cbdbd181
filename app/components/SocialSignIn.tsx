import { useState, type MouseEvent } from "react";
import { alertDialog, toast } from "#app/lib/dialogs.ts";
import { googleSignInUrl, openGooglePopup, type GoogleAuthResult, type GoogleIntent } from "#app/lib/google-popup.ts";
import { MSG } from "#app/lib/messages.ts";
import { FacebookIcon } from "./icons";

/** What to tell the person for each way Google sign-in can fail (the spec only logged these). */
function googleFailureText(result: Extract<GoogleAuthResult, { ok: false }>): string {
  switch (result.code) {
    case "google-not-configured":
      return MSG.googleErrors.notConfigured;
    case "popup-closed-by-user":
      return MSG.googleErrors.popupClosed;
    case "popup-blocked":
      return MSG.googleErrors.popupBlocked;
    case "network-request-failed":
      return MSG.googleErrors.network;
    default:
      // The server's own codes (access-denied, account-exists-unverified, ...) carry a sentence meant for people.
      return result.message || MSG.googleErrors.generic;
  }
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" width={20} height={20} aria-hidden="true">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}

const buttonBase =
  "inline-flex w-full items-center justify-center gap-2 rounded-full border px-4 py-2.5 text-sm font-semibold shadow-sm";

/**
 * Sign in with Google: the spec's 500 by 600 popup once hydrated; a plain link into the redirect
 * flow without JavaScript. Success and every failure get a dialog.
 */
export function GoogleButton({ intent, redirectTo }: { intent: GoogleIntent; redirectTo: string }) {
  const [busy, setBusy] = useState(false);

  async function signIn(e: MouseEvent<HTMLAnchorElement>) {
    e.preventDefault();
    if (busy) return;
    if (typeof navigator !== "undefined" && navigator.onLine === false) {
      await alertDialog(MSG.googleErrors.title, MSG.googleErrors.network, "error");
      return;
    }
    setBusy(true);
    let result: GoogleAuthResult;
    try {
      // Opened straight from the click, so browsers count it as a user gesture and let the popup through.
      result = await openGooglePopup({ intent, redirectTo });
    } catch {
      result = { ok: false, code: "internal-error", message: MSG.googleErrors.generic };
    } finally {
      setBusy(false);
    }
    if (result.ok) {
      const [title, text] =
        result.intent === "register"
          ? [MSG.register.googleTitle, MSG.register.googleText]
          : [MSG.google.successTitle, MSG.google.successText];
      await toast(title, text);
      // A full load: the session cookie arrived in the popup, and every loader should see it.
      window.location.assign(result.redirectTo);
      return;
    }
    // A newer click replaced this attempt: that one reports for itself.
    if (result.code === "cancelled-popup-request") return;
    await alertDialog(MSG.googleErrors.title, googleFailureText(result), "error");
  }

  return (
    <a
      href={googleSignInUrl("redirect", { intent, redirectTo })}
      onClick={signIn}
      aria-busy={busy || undefined}
      className={`${buttonBase} border-gray-300 bg-white text-gray-800 hover:bg-gray-50`}
    >
      <GoogleMark />
      Sign in with Google
    </a>
  );
}

/** The spec's inert Facebook button: present, visibly unavailable, and saying why. */
export function FacebookButton() {
  return (
    <button
      type="button"
      disabled
      title={MSG.accounts.facebookUnavailable}
      className={`${buttonBase} cursor-not-allowed border-gray-200 bg-gray-50 text-gray-500`}
    >
      <FacebookIcon className="text-gray-400" />
      Continue with Facebook
      <span className="sr-only">({MSG.accounts.facebookUnavailable})</span>
    </button>
  );
}
