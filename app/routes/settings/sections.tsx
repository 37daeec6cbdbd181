import { Form, Link } from "@remix-run/react";
import { type ReactNode } from "react";
import { Field, FormError, SubmitButton } from "#app/components/form.tsx";
import type { FormFailure } from "#app/lib/form-result.ts";
import { LocalTime } from "#app/components/LocalTime.tsx";

export type Failure = FormFailure | null;

export const iso = (ms: number) => new Date(ms).toISOString();

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

export function Intent({ value }: { value: string }) {
  return <input type="hidden" name="intent" value={value} />;
}

/** For accounts without a password: the password field, or the Google confirmation that stands in for it. */
export function Proof({
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
  /** A change waiting for its link to be opened. */
  pending: { newEmail: string; expiresAt: string } | null;
  failure: Failure;
}) {
  const { email, verified, pending, failure } = props;
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
      {pending ? (
        <p
          data-testid="pending-email"
          className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          Waiting for confirmation: <strong className="break-all font-semibold">{pending.newEmail}</strong>. Open the
          link we sent there to make it your address (it works until <LocalTime iso={pending.expiresAt} withTime />
          ). Until then, {email} stays your address.
        </p>
      ) : null}
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
