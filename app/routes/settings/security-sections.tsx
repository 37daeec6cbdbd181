import { Form, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { FormError } from "#app/components/form.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { alertDialog, toast } from "#app/lib/dialogs.ts";
import { MSG } from "#app/lib/messages.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { SessionView } from "#worker/services/accounts/settings.ts";
import type { PasskeyView } from "#worker/services/accounts/passkeys.ts";
import { PASSKEY_NEEDS_VERIFIED_EMAIL } from "#worker/services/texts.ts";
import { Intent, Section, iso, type Failure } from "./sections.tsx";

function AddPasskeyButton() {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);

  async function add() {
    // The ceremony's code (ours and the WebAuthn library) loads only now, on the press.
    const { passkeyErrorText, passkeysSupported, addPasskey } = await import("#app/lib/passkeys.ts");
    if (!passkeysSupported()) {
      await alertDialog(MSG.settings.passkeyFailed, MSG.settings.passkeyUnsupported, "error");
      return;
    }
    setBusy(true);
    try {
      await addPasskey();
      revalidator.revalidate();
      await toast(MSG.settings.passkeyAdded);
    } catch (err) {
      await alertDialog(MSG.settings.passkeyFailed, passkeyErrorText(err), "error");
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={() => void add()}
        disabled={!hydrated || busy}
        aria-busy={busy || undefined}
        className={buttonClass()}
      >
        {busy ? "Waiting for your device…" : "Add a passkey"}
      </button>
      <noscript>
        <p className="mt-2 text-sm text-gray-600">Adding a passkey needs JavaScript; removing one does not.</p>
      </noscript>
    </>
  );
}

export function PasskeySection({
  passkeys,
  emailVerified,
  failure,
}: {
  passkeys: PasskeyView[];
  emailVerified: boolean;
  failure: Failure;
}) {
  return (
    <Section
      id="passkeys"
      title="Passkeys"
      description="Sign in with your fingerprint, face or screen lock instead of a password. Each device keeps its own passkey."
    >
      <FormError message={failure?.formError} />
      {passkeys.length === 0 ? (
        <p className="mb-4 text-sm italic text-gray-500">No passkeys yet.</p>
      ) : (
        <ul className="mb-4 divide-y divide-gray-100 rounded-xl border border-gray-200">
          {passkeys.map((p) => (
            <li key={p._id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="truncate text-sm font-semibold text-ink">{p.name}</p>
                <p className="text-xs text-gray-500">
                  Added <LocalTime iso={iso(p.createdAt)} />
                  {p.lastUsedAt ? (
                    <>
                      {" "}
                      · last used <LocalTime iso={iso(p.lastUsedAt)} withTime />
                    </>
                  ) : null}
                </p>
              </div>
              <Form method="post" action="/settings#passkeys">
                <Intent value="remove-passkey" />
                <input type="hidden" name="passkeyId" value={p._id} />
                <button type="submit" className={buttonClass({ tone: "secondary", size: "sm" })}>
                  Remove <span className="sr-only">passkey {p.name}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {emailVerified ? (
        <AddPasskeyButton />
      ) : (
        // The server refuses it too (403): a passkey must never be added to an address nobody has proven.
        <p className="text-sm text-gray-700">{PASSKEY_NEEDS_VERIFIED_EMAIL}</p>
      )}
    </Section>
  );
}

export function SessionsSection({ sessions, failure }: { sessions: SessionView[]; failure: Failure }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <Section id="sessions" title="Signed-in sessions" description="Where your account is signed in right now.">
      <FormError message={failure?.formError} />
      <ul className="divide-y divide-gray-100 rounded-xl border border-gray-200">
        {sessions.map((s) => (
          <li key={s._id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-ink">
                {s.device}
                {s.current ? (
                  <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
                    This device
                  </span>
                ) : null}
              </p>
              <p className="text-xs text-gray-500">
                {s.location ? `${s.location} · ` : ""}signed in <LocalTime iso={iso(s.createdAt)} /> · last active{" "}
                <LocalTime iso={iso(s.lastSeenAt)} withTime />
              </p>
            </div>
            {s.current ? null : (
              <Form method="post" action="/settings#sessions">
                <Intent value="end-session" />
                <input type="hidden" name="sessionId" value={s._id} />
                <button type="submit" className={buttonClass({ tone: "secondary", size: "sm" })}>
                  Sign out <span className="sr-only">{s.device}</span>
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <Form method="post" action="/settings#sessions" className="mt-4">
        <Intent value="end-others" />
        <button type="submit" disabled={others === 0} className={buttonClass({ tone: "secondary" })}>
          Sign out everywhere else
        </button>
      </Form>
    </Section>
  );
}
