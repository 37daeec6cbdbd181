import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { DomainError } from "#worker/services/shared/errors.ts";
import { EMAIL_CHANGE_TEXTS } from "#worker/services/accounts/email-change.ts";
import { buttonClass } from "#app/components/ui.tsx";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { brandOf } from "#app/lib/site-name.ts";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Confirm your new email | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

/**
 * The link mailed to a new address (/confirm-email?token=…): opening it confirms the change (the
 * token is single-use and proves the address), then the person lands on their settings, or on the
 * sign-in page when this browser is not signed in. A spent, expired or forged link says why.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  try {
    const { email } = await context.services.emailChange.confirm(url.searchParams.get("token"), url.origin);
    return redirectWithFlash(context.user ? "/settings#email" : "/login", {
      kind: "toast",
      title: MSG.settings.emailChanged,
      text: EMAIL_CHANGE_TEXTS.changed(email),
      icon: "success",
    });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { problem: err.message, signedIn: Boolean(context.user) };
  }
}

export default function ConfirmEmail() {
  const { problem, signedIn } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-lg px-4 py-16 sm:px-6">
      <div className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-ink">This link cannot change your email</h1>
        <p role="alert" className="mt-3 text-gray-700">
          {problem}
        </p>
        <Link to={signedIn ? "/settings#email" : "/login"} className={`${buttonClass()} mt-6`}>
          {signedIn ? "Back to settings" : "Sign in"}
        </Link>
      </div>
    </div>
  );
}
