import { Form } from "@remix-run/react";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import type { FormFailure } from "#app/lib/form-result.ts";
import {
  CHOICE_LABELS,
  EMAIL_CHOICES,
  KIND_LABELS,
  NOTIFICATION_KINDS,
  type NotificationPrefs,
} from "#worker/services/notifications/texts.ts";
import { Section } from "./sections";

/** Per-kind email choices: none, right away, or one daily digest. A plain form: works without JavaScript. */
export function NotificationsSection(props: {
  prefs: NotificationPrefs;
  verified: boolean;
  failure: FormFailure | null;
}) {
  return (
    <Section
      id="notifications"
      title="Notifications"
      description="The bell in the top bar always shows them. Choose which ones also come by email."
    >
      {props.failure ? <FormError message={props.failure.formError} /> : null}
      {props.verified ? null : (
        <p className="mb-4 text-sm text-gray-700">Verify your email address (see Email above) to get them by email.</p>
      )}
      <Form method="post" action="/settings#notifications" className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-3">
          <legend className="sr-only">Email for each kind of notification</legend>
          {NOTIFICATION_KINDS.map((kind) => (
            <div key={kind} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
              <label htmlFor={`pref-${kind}`} className="text-sm font-medium text-gray-800">
                {KIND_LABELS[kind]}
              </label>
              <select
                id={`pref-${kind}`}
                name={kind}
                defaultValue={props.prefs[kind]}
                className="rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-ink focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 sm:w-56"
              >
                {EMAIL_CHOICES.map((choice) => (
                  <option key={choice} value={choice}>
                    {CHOICE_LABELS[choice]}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
        <div>
          <SubmitButton name="intent" value="notification-prefs" pendingText="Saving…">
            Save email choices
          </SubmitButton>
        </div>
      </Form>
    </Section>
  );
}
