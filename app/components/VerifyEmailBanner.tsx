import { Form, Link, useLocation } from "@remix-run/react";
import { SubmitButton } from "./form";
import { containerClass } from "./ui";

/**
 * Shown on every page to a signed-in person whose address is not confirmed yet. The spec's journey
 * is unchanged (they can write at once); this only offers the link again. Works without JavaScript.
 */
export function VerifyEmailBanner({ email }: { email: string }) {
  const location = useLocation();
  // The confirmation page says it itself (and, once confirmed there, this banner would be stale).
  if (location.pathname === "/verify-email") return null;
  // The page the link is asked from: confirming leads back to it (app/routes/verify-email.tsx).
  const here = `${location.pathname}${location.search}`;
  return (
    <section
      aria-label="Confirm your email address"
      className="verify-banner border-b border-amber-200 bg-amber-50 text-amber-950"
    >
      <div
        className={containerClass({
          className: "flex flex-col gap-2 py-3 text-sm sm:flex-row sm:items-center sm:justify-between",
        })}
      >
        <p>
          <strong>Please confirm your email address.</strong> We sent a link to{" "}
          <span className="break-all">{email}</span>; it may take a few minutes to arrive.{" "}
          <Link to={`/verify-email?redirectTo=${encodeURIComponent(here)}`} className="underline">
            Why?
          </Link>
        </p>
        <Form method="post" action="/verify-email" className="shrink-0">
          <input type="hidden" name="redirectTo" value={here} />
          <SubmitButton tone="secondary" pendingText="Sending…" className="!px-4 !py-1.5">
            Resend the link
          </SubmitButton>
        </Form>
      </div>
    </section>
  );
}
