import { useState } from "react";
import { alertDialog, toast } from "#app/lib/dialogs.ts";
import { MSG } from "#app/lib/messages.ts";
import { useBrand } from "#app/lib/site-name.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";

/**
 * "Sign in with a passkey" on /login: no email needed (the passkeys are discoverable). The WebAuthn
 * library loads only when pressed. Passkeys need JavaScript, so without it the button stays disabled
 * and says so.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const hydrated = useHydrated();
  const brand = useBrand();
  const [busy, setBusy] = useState(false);

  async function signIn() {
    // The ceremony's code (ours and the WebAuthn library) loads only now, on the press.
    const { passkeyErrorText, passkeysSupported, signInWithPasskey } = await import("#app/lib/passkeys.ts");
    if (!passkeysSupported()) {
      await alertDialog(MSG.settings.passkeySignInFailed, MSG.settings.passkeyUnsupported, "error");
      return;
    }
    setBusy(true);
    try {
      await signInWithPasskey();
    } catch (err) {
      setBusy(false);
      await alertDialog(MSG.settings.passkeySignInFailed, passkeyErrorText(err), "error");
      return;
    }
    await toast(MSG.login.successTitle, MSG.login.successText(brand));
    // A full load: every loader should see the new session cookie.
    window.location.assign(redirectTo);
  }

  return (
    <>
      <button
        type="button"
        onClick={() => void signIn()}
        disabled={!hydrated || busy}
        aria-busy={busy || undefined}
        className="inline-flex w-full items-center justify-center gap-2 rounded-full border border-gray-300 bg-white px-4 py-2.5 text-sm font-semibold text-gray-800 shadow-sm hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-70"
      >
        <svg
          viewBox="0 0 24 24"
          width={20}
          height={20}
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth={1.8}
        >
          <circle cx="9" cy="8" r="4" />
          <path d="M2 20v-1a5 5 0 0 1 5-5h4M17 11a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM17 17v5M17 19.5h2" />
        </svg>
        {busy ? "Waiting for your device…" : "Sign in with a passkey"}
      </button>
      <noscript>
        <p className="mt-1 text-center text-xs text-gray-500">Signing in with a passkey needs JavaScript.</p>
      </noscript>
    </>
  );
}
