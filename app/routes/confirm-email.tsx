import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DomainError } from "#worker/services/shared/errors.ts";
import { EMAIL_CHANGE_TEXTS } from "#worker/services/accounts/email-change.ts";
import { confirmerOf } from "#worker/services/accounts/fresh-start.ts";
import { AuthLayout } from "#app/components/AuthLayout.tsx";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { formStatus, readForm } from "#app/lib/forms.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { tokenPageHeaders, tokenPageMeta } from "#app/lib/token-page.ts";

export const meta = tokenPageMeta({
  title: "Confirm your new email address",
  description: (brand) => `Confirm the new email address of your ${brand} account.`,
  path: "/confirm-email",
});

export const headers = tokenPageHeaders;

/**
 * The link mailed to a new address (/confirm-email?token=…). Opening it changes nothing: mail scanners
 * follow links, so a GET only checks the token and shows what pressing the button would do (a no-JS
 * form that posts it). Confirmed while signed in to the account, the person lands on their settings;
 * from any other browser the account starts afresh and the page says so.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  const signedIn = Boolean(context.user);
  try {
    const change = await context.services.emailChange.check(token, confirmerOf(context.user, context.sessionId));
    return { origin: url.origin, signedIn, token, change, problem: null };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { origin: url.origin, signedIn, token: null, change: null, problem: err.message };
  }
}

export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const origin = new URL(request.url).origin;
  try {
    const done = await context.services.emailChange.confirm(
      form.get("token"),
      origin,
      confirmerOf(context.user, context.sessionId),
    );
    // The words are made here: the component must not import the service (it would ship zod to the browser).
    if (done.accountReset) return { problem: null, startedAfresh: EMAIL_CHANGE_TEXTS.startedAfresh(done.email) };
    const changed = EMAIL_CHANGE_TEXTS.changed(done.email);
    return redirectWithFlash("/settings#email", {
      kind: "toast",
      title: MSG.settings.emailChanged,
      text: done.passkeysRemoved ? `${changed} ${EMAIL_CHANGE_TEXTS.passkeysGone}` : changed,
      icon: "success",
    });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return data({ problem: err.message, startedAfresh: null }, { status: formStatus(err) });
  }
}

const ASIDE = {
  heading: "Your address, your account.",
  text: "A new address counts once you confirm it from the mailbox it belongs to.",
};

export default function ConfirmEmail() {
  const { signedIn, token, change, problem: loadProblem } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const problem = posted?.problem ?? loadProblem;
  if (posted?.startedAfresh) {
    return (
      <AuthLayout title="Email address changed" subtitle="One more step: choose a password." aside={ASIDE}>
        <div className="flex flex-col gap-4">
          <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
            {posted.startedAfresh}
          </p>
          <Link to="/forgot-password" className={buttonClass({ className: "w-full" })}>
            Choose a password
          </Link>
        </div>
      </AuthLayout>
    );
  }
  if (problem || !change || !token) {
    return (
      <AuthLayout
        title="This link cannot change your email"
        subtitle="Email change links work once, for 24 hours."
        aside={ASIDE}
      >
        <div className="flex flex-col gap-4">
          <FormError message={problem ?? undefined} />
          <Link to={signedIn ? "/settings#email" : "/login"} className={buttonClass({ className: "w-full" })}>
            {signedIn ? "Back to settings" : "Sign in"}
          </Link>
        </div>
      </AuthLayout>
    );
  }
  const back = `/confirm-email?token=${encodeURIComponent(token)}`;
  return (
    <AuthLayout
      title="Confirm your new email address"
      subtitle="Press the button to make this the address of the account below."
      aside={ASIDE}
    >
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="token" value={token} />
        <p className="text-sm text-gray-700">
          This makes <span className="break-all font-semibold">{change.newEmail}</span> the address of the account{" "}
          <span className="font-semibold">{change.name}</span>, now{" "}
          <span className="break-all font-semibold">{change.oldEmail}</span>. If you did not ask for this change, close
          this page and nothing happens.
        </p>
        {change.ownSession ? (
          <p className="text-sm text-gray-700">
            Your other devices will be signed out, and passkeys added for your old address removed.
          </p>
        ) : (
          <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            This browser is not signed in to that account. Confirming here signs it out on every device and removes its
            password and passkeys; you then choose a new password. To keep them,{" "}
            <Link
              to={`/login?redirectTo=${encodeURIComponent(back)}`}
              className="font-semibold underline underline-offset-2"
            >
              sign in to the account first
            </Link>
            .
          </p>
        )}
        <SubmitButton pendingText="Confirming…" className="w-full">
          Confirm my new email address
        </SubmitButton>
      </Form>
    </AuthLayout>
  );
}
