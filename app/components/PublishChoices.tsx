import type { ReactNode } from "react";
import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "#app/root.tsx";
import type { BlogStatus } from "#worker/services/blogs/visible.ts";
import { SubmitButton } from "#app/components/form.tsx";

/**
 * The submit row of the blog forms: the spec's own button (`primary`, which keeps its meaning and stays
 * first in the DOM, so Enter in a field still presses it), and beside it "Save draft" (seen only by the
 * writer and admins) and "Schedule" (published at the form's date and time, which must be ahead). A post
 * that is not public yet can also be published at once.
 */
export function PublishChoices({
  primary,
  current,
  note,
  noEmail,
}: {
  primary: ReactNode;
  current?: BlogStatus;
  note?: ReactNode;
  /** Whether "Don't email this post" starts ticked; undefined hides it (a post already public was sent). */
  noEmail?: boolean;
}) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const here = useLocation();
  // The outreach gate (worker/services/blogs/outreach.ts) mails and federates only a verified writer's post:
  // an unverified one is told so before posting, with the way to fix it, instead of being promised a send.
  const unverified = root?.user ? !root.user.emailVerified : false;
  return (
    <div className="flex flex-col gap-3 border-t border-gray-100 pt-5">
      {noEmail === undefined ? null : (
        <div className="flex flex-col gap-1">
          {/* An unticked box sends nothing: this says the form had the choice at all. */}
          <input type="hidden" name="email_choice" value="1" />
          <label className="inline-flex items-center gap-2 text-sm font-medium text-gray-800">
            <input
              type="checkbox"
              name="no_email"
              defaultChecked={noEmail}
              className="h-4 w-4 rounded border-gray-300"
            />
            Don&apos;t email this post
          </label>
          {unverified ? (
            <p data-testid="unverified-send" className="text-xs text-amber-800 dark:text-amber-300">
              Your posts are not emailed to subscribers or sent to followers until you confirm your email address: a
              mail from an unconfirmed address could be anyone&apos;s.{" "}
              <Link
                to={`/verify-email?redirectTo=${encodeURIComponent(`${here.pathname}${here.search}`)}`}
                className="font-semibold underline"
              >
                Confirm your address
              </Link>{" "}
              and the posts you publish after that are sent.
            </p>
          ) : (
            <p className="text-xs text-gray-500">
              Otherwise it goes to the newsletter&apos;s confirmed subscribers when it is published (once): all of them,
              or only the free or the paying ones, as an admin chose.
            </p>
          )}
        </div>
      )}
      <div className="flex flex-col items-stretch gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-end">
        <div className="flex flex-col sm:order-last">{primary}</div>
        {current && current !== "published" ? (
          <SubmitButton tone="secondary" name="status" value="published" pendingText="Publishing…">
            Publish now
          </SubmitButton>
        ) : null}
        <SubmitButton tone="secondary" name="status" value="draft" pendingText="Saving…" formNoValidate>
          Save draft
        </SubmitButton>
        <SubmitButton tone="secondary" name="status" value="scheduled" pendingText="Scheduling…">
          Schedule
        </SubmitButton>
        {note ? <div className="sm:order-first sm:mr-auto">{note}</div> : null}
      </div>
      <p className="text-xs text-gray-500 sm:text-right">
        A draft is seen only by you and admins, and needs only a title. Schedule publishes the post at the date and time
        above.
      </p>
    </div>
  );
}
