import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { safeRedirect } from "#worker/auth/redirect.ts";
import { VERIFY_TEXTS } from "#worker/services/texts.ts";
import { DomainError, ValidationError } from "#worker/services/shared/errors.ts";
import { AuthLayout } from "#app/components/AuthLayout.tsx";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { loginUrl } from "#app/lib/guards.server.ts";
import { tokenPageHeaders, tokenPageMeta } from "#app/lib/token-page.ts";
import { confirmerOf } from "#worker/services/accounts/fresh-start.ts";

export const meta = tokenPageMeta({
  title: "Confirm your email address",
  description: (brand) => `Confirm the email address of your ${brand} account.`,
  path: "/verify-email",
});

export const headers = tokenPageHeaders;

type State = "confirm" | "verified" | "reset" | "already" | "invalid" | "pending" | "visitor";

/**
 * Where Continue leads once the address is confirmed: the page the person asked for the link from, carried
 * through the link as `redirectTo`. Only a path of this site (safeRedirect); this page itself, or anything
 * else, is the home page.
 */
function returnPath(value: unknown): string {
  const path = safeRedirect(value, "/");
  return /^\/verify-email(?:[/?#]|$)/.test(path) ? "/" : path;
}

/**
 * Opening the link confirms nothing by itself: mail scanners and link previews follow links, so a GET
 * only checks the token and shows a button that posts it (the action confirms). Without JavaScript too.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const origin = url.origin;
  const token = url.searchParams.get("token");
  const user = context.user;
  const view = (state: State, problem: string | null = null, linkEmail: string | null = null, own = false) => ({
    origin,
    state,
    problem,
    email: user?.email ?? null,
    token: state === "confirm" ? token : null,
    linkEmail,
    ownSession: own,
    returnTo: returnPath(url.searchParams.get("redirectTo")),
  });
  if (token !== null) {
    try {
      const confirmer = confirmerOf(user, context.sessionId);
      const { email, ownSession } = await context.services.emailVerification.check(token, confirmer);
      return view("confirm", null, email, ownSession);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      // A used link opened again by its own (now verified) account is no failure.
      if (err.code === "token-used" && user?.emailVerified) return view("already");
      return view("invalid", err.message);
    }
  }
  if (!user) return view("visitor");
  return view(user.emailVerified ? "already" : "pending");
}

/**
 * Two forms post here: the confirm button (intent "verify", the link's token) and the banner's and this
 * page's "Resend the link" (signed in only, rate-limited by the service).
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (form.get("intent") === "verify") {
    const returnTo = returnPath(form.get("returnTo"));
    try {
      const confirmer = confirmerOf(context.user, context.sessionId);
      const { alreadyVerified, accountReset } = await context.services.emailVerification.verify(
        form.get("token"),
        confirmer,
      );
      const state: State = alreadyVerified ? "already" : accountReset ? "reset" : "verified";
      return { state, problem: null, returnTo };
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      if (err.code === "token-used" && context.user?.emailVerified)
        return { state: "already" as State, problem: null, returnTo };
      return data({ state: "invalid" as State, problem: err.message }, { status: 400 });
    }
  }
  const back = safeRedirect(form.get("redirectTo"), "/verify-email");
  // The banner sends the page it is on; this page's own form the page it was reached from.
  const returnTo = returnPath(form.get("returnTo") ?? back);
  if (!context.user) throw redirect(loginUrl(request));
  try {
    const client = await context.client();
    await context.services.emailVerification.resend(context.user, client, Date.now(), returnTo);
    return redirectWithFlash(back, {
      kind: "toast",
      title: "Check your inbox",
      text: VERIFY_TEXTS.resent(context.user.email),
      icon: "success",
    });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return redirectWithFlash(back, { kind: "alert", title: "No new link sent", text: err.message, icon: "error" });
  }
}

const TITLES: Record<State, [string, string]> = {
  confirm: ["Confirm your email address", "Press the button to confirm this address for your account."],
  verified: ["Email address confirmed", VERIFY_TEXTS.verified],
  reset: ["Email address confirmed", VERIFY_TEXTS.startedAfresh],
  already: ["Email address confirmed", VERIFY_TEXTS.alreadyVerified],
  invalid: ["This link cannot be used", "Confirmation links work once, for 24 hours."],
  pending: ["Confirm your email address", "Open the link we sent you to confirm your address."],
  visitor: ["Confirm your email address", "Open the link from your email, or sign in to ask for a new one."],
};

export default function VerifyEmail() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  // After the button, the answer of the post; before it, what the link's check found.
  const { state, problem } = posted && "state" in posted ? posted : loaded;
  const { email, token, linkEmail, ownSession } = loaded;
  const returnTo = posted && "returnTo" in posted ? posted.returnTo : loaded.returnTo;
  const [title, sentence] = TITLES[state];
  const done = state === "verified" || state === "already" || state === "reset";
  // Once confirmed the sentence is said once, in the status box (read out when the button's answer comes).
  return (
    <AuthLayout
      title={title}
      subtitle={done ? undefined : sentence}
      aside={{
        heading: "One less thing to worry about.",
        text: "A confirmed address means you can always get back into your account.",
      }}
    >
      <div className="flex flex-col gap-4">
        {state === "invalid" ? <FormError message={problem ?? undefined} /> : null}
        {done ? (
          <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
            {sentence}
          </p>
        ) : null}
        {state === "confirm" && token ? (
          <Form method="post" className="flex flex-col gap-3">
            <input type="hidden" name="intent" value="verify" />
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name="returnTo" value={returnTo} />
            <p className="text-sm text-gray-600">
              This confirms <span className="break-all font-semibold">{linkEmail}</span>. If you did not create an
              account with this address, close this page and nothing happens.
            </p>
            {ownSession ? null : (
              <p
                role="note"
                className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
              >
                {VERIFY_TEXTS.notSignedIn} To keep them,{" "}
                <Link
                  to={`/login?redirectTo=${encodeURIComponent(`/verify-email?token=${token}`)}`}
                  className="font-semibold underline underline-offset-2"
                >
                  sign in to the account first
                </Link>
                .
              </p>
            )}
            <SubmitButton pendingText="Confirming…" className="w-full">
              Confirm my email address
            </SubmitButton>
          </Form>
        ) : null}
        {state === "pending" || (state === "invalid" && email) ? (
          <Form method="post" className="flex flex-col gap-3">
            <input
              type="hidden"
              name="redirectTo"
              value={returnTo === "/" ? "/verify-email" : `/verify-email?redirectTo=${encodeURIComponent(returnTo)}`}
            />
            <input type="hidden" name="returnTo" value={returnTo} />
            <p className="text-sm text-gray-600">We will send a new link to {email}.</p>
            <SubmitButton pendingText="Sending…" className="w-full">
              Send a new link
            </SubmitButton>
          </Form>
        ) : null}
        {state === "visitor" || (state === "invalid" && !email) ? (
          <Link to="/login?redirectTo=%2Fverify-email" className={buttonClass({ className: "w-full" })}>
            Sign in
          </Link>
        ) : null}
        {state === "reset" ? (
          <Link to="/forgot-password" className={buttonClass({ className: "w-full" })}>
            Choose a password
          </Link>
        ) : done ? (
          <Link to={returnTo} className={buttonClass({ className: "w-full" })}>
            Continue
          </Link>
        ) : null}
      </div>
    </AuthLayout>
  );
}
