import { Form, Link, useRevalidator } from "@remix-run/react";
import { useState, type FormEvent, type ReactNode } from "react";
import { Field, FormError, SubmitButton } from "#app/components/form.tsx";
import { LocalTime } from "#app/components/LocalTime.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { alertDialog, confirmAsk, toast } from "#app/lib/dialogs.ts";
import type { FormFailure } from "#app/lib/form-result.ts";
import { MSG } from "#app/lib/messages.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { SessionView } from "#worker/services/account.ts";
import type { PasskeyView } from "#worker/services/passkeys.ts";

type Failure = FormFailure | null;

const iso = (ms: number) => new Date(ms).toISOString();

/** Where a Google-only account proves itself again, coming back to `back` (a section of this page). */
const googleReauthHref = (back: string) =>
  `/auth/google?${new URLSearchParams({ mode: "redirect", intent: "reauth", redirectTo: back }).toString()}`;

export function Section({
  id,
  title,
  description,
  tone = "normal",
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  tone?: "normal" | "danger";
  children: ReactNode;
}) {
  const border = tone === "danger" ? "border-red-200 dark:border-red-900" : "border-gray-200";
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={`scroll-mt-24 rounded-2xl border ${border} bg-white p-5 shadow-sm sm:p-6`}
    >
      <h2 id={`${id}-title`} className={`text-lg font-bold ${tone === "danger" ? "text-red-700" : "text-ink"}`}>
        {title}
      </h2>
      <div className="mt-1 text-sm text-gray-600">{description}</div>
      <div className="mt-5">{children}</div>
    </section>
  );
}

function Intent({ value }: { value: string }) {
  return <input type="hidden" name="intent" value={value} />;
}

/** For accounts without a password: the password field, or the Google confirmation that stands in for it. */
function Proof({
  hasPassword,
  googleConfirmed,
  back,
  failure,
  label,
}: {
  hasPassword: boolean;
  googleConfirmed: boolean;
  back: string;
  failure: Failure;
  label: string;
}) {
  if (hasPassword)
    return (
      <Field
        label={label}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={failure?.fields.password}
      />
    );
  if (googleConfirmed)
    return (
      <p className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800 dark:bg-green-950 dark:text-green-200">
        Google confirmed it is you.
      </p>
    );
  return (
    <p className="text-sm text-gray-700">
      Your account signs in with Google, so confirm with Google first (it counts for 5 minutes):{" "}
      <a href={googleReauthHref(back)} className="font-semibold text-brand-700 hover:underline">
        Confirm with Google
      </a>
      {failure?.fields.password ? <span className="mt-1 block text-red-700">{failure.fields.password}</span> : null}
    </p>
  );
}

export function PasswordSection({ hasPassword, failure }: { hasPassword: boolean; failure: Failure }) {
  return (
    <Section id="password" title="Password" description="Changing your password signs you out on every other device.">
      {hasPassword ? (
        <Form method="post" action="/settings#password" className="flex max-w-md flex-col gap-4">
          <Intent value="change-password" />
          <FormError message={failure && !Object.keys(failure.fields).length ? failure.formError : undefined} />
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={failure?.fields.currentPassword}
          />
          <Field
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            minLength={8}
            maxLength={128}
            required
            hint="8 to 128 characters, not only digits."
            error={failure?.fields.newPassword}
          />
          <div>
            <SubmitButton pendingText="Changing…" name="intent" value="change-password">
              Change password
            </SubmitButton>
          </div>
        </Form>
      ) : (
        <p className="text-sm text-gray-700">
          Your account signs in with Google and has no password. To set one, use{" "}
          <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
            Forgot password
          </Link>{" "}
          with your email address.
        </p>
      )}
    </Section>
  );
}

export function EmailSection(props: {
  email: string;
  verified: boolean;
  hasPassword: boolean;
  googleConfirmed: boolean;
  failure: Failure;
}) {
  const { email, verified, failure } = props;
  return (
    <Section
      id="email"
      title="Email address"
      description="We send a link to the new address; your address changes when you open it, and we tell the old one."
    >
      <p className="mb-4 flex flex-wrap items-center gap-2 text-sm">
        <span className="break-all font-medium text-gray-800">{email}</span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${verified ? "bg-green-50 text-green-800 dark:bg-green-950 dark:text-green-200" : "bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-200"}`}
        >
          {verified ? "Verified" : "Not verified"}
        </span>
      </p>
      <Form method="post" action="/settings#email" className="flex max-w-md flex-col gap-4">
        <Intent value="change-email" />
        <FormError message={failure && !Object.keys(failure.fields).length ? failure.formError : undefined} />
        <Field
          label="New email address"
          name="newEmail"
          type="email"
          autoComplete="email"
          required
          defaultValue={failure?.values.newEmail}
          error={failure?.fields.newEmail}
        />
        <Proof {...props} back="/settings#email" label="Current password" />
        <div>
          <SubmitButton pendingText="Sending…" name="intent" value="change-email">
            Send confirmation link
          </SubmitButton>
        </div>
      </Form>
    </Section>
  );
}

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

export function PasskeySection({ passkeys, failure }: { passkeys: PasskeyView[]; failure: Failure }) {
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
      <AddPasskeyButton />
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

/** The newsletter in one click for an account whose email is verified (issue 21). */
export function NewsletterSection(props: {
  email: string;
  verified: boolean;
  state: "pending" | "confirmed" | "unsubscribed" | null;
  failure: Failure;
}) {
  const subscribed = props.state === "confirmed";
  return (
    <Section
      id="newsletter"
      title="Newsletter"
      description={
        subscribed
          ? `Every new post goes to ${props.email} as it is published.`
          : "Get every new post by email as it is published. Every message has a one-click unsubscribe."
      }
    >
      {props.failure ? <FormError message={props.failure.formError} /> : null}
      {!props.verified && !subscribed ? (
        <p className="text-sm text-gray-700">
          Verify your email address first (see Email above), or subscribe from the form on the home page.
        </p>
      ) : (
        <Form method="post" action="/settings#newsletter">
          <SubmitButton
            tone={subscribed ? "secondary" : "primary"}
            name="intent"
            value={subscribed ? "newsletter-unsubscribe" : "newsletter-subscribe"}
            pendingText={subscribed ? "Unsubscribing…" : "Subscribing…"}
          >
            {subscribed ? "Unsubscribe" : "Subscribe"}
          </SubmitButton>
        </Form>
      )}
    </Section>
  );
}

export function DataSection() {
  return (
    <Section
      id="data"
      title="Download your data"
      description="A zip of every post you wrote (drafts too) as Markdown with their images, and your profile, comments, likes and saved posts as JSON."
    >
      <a href="/api/auth/export" download className={buttonClass({ tone: "secondary" })}>
        Download my data (.zip)
      </a>
    </Section>
  );
}

export function DeleteSection(props: { hasPassword: boolean; googleConfirmed: boolean; failure: Failure }) {
  const { failure } = props;
  const hydrated = useHydrated();

  // With JavaScript, the site's usual "Are you sure?" dialog asks once more before the form goes.
  async function ask(e: FormEvent<HTMLFormElement>) {
    const form = e.currentTarget;
    if (form.dataset.confirmed === "yes") return;
    e.preventDefault();
    if (!(await confirmAsk("delete"))) return;
    form.dataset.confirmed = "yes";
    form.requestSubmit();
  }

  return (
    <Section
      id="delete-account"
      title="Delete account"
      tone="danger"
      description="Deletes your account with your posts, comments, likes, saved posts, profile and passkeys, and signs you out everywhere. Your email address becomes free to use again. This cannot be undone."
    >
      <Form
        method="post"
        action="/settings#delete-account"
        className="flex max-w-md flex-col gap-4"
        onSubmit={hydrated ? (e) => void ask(e) : undefined}
      >
        <Intent value="delete-account" />
        <FormError message={failure && !Object.keys(failure.fields).length ? failure.formError : undefined} />
        <Proof {...props} back="/settings#delete-account" label="Your password" />
        <label className="flex items-start gap-2 text-sm text-gray-700">
          <input type="checkbox" name="understood" required className="mt-0.5" />I understand that my account and
          everything in it will be deleted.
        </label>
        <div>
          <button type="submit" className={buttonClass({ tone: "danger" })}>
            Delete my account
          </button>
        </div>
      </Form>
    </Section>
  );
}
