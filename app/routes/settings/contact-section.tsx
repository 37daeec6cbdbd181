import { Form } from "@remix-run/react";
import { Field, FormError, SubmitButton } from "#app/components/form.tsx";
import type { FormFailure } from "#app/lib/form-result.ts";
import { Section } from "./sections";

/**
 * The public contact address: shown to readers (and the REST API's post records) in place of the
 * sign-in address, which stays private. Empty by default: then no address is shown.
 */
export function ContactSection({ contactEmail, failure }: { contactEmail: string; failure: FormFailure | null }) {
  return (
    <Section
      id="contact-address"
      title="Public contact address"
      description="Your sign-in address is never shown to readers. If you want readers and API clients to be able to write to you, give an address to show in its place. Leave it empty to show none."
    >
      <Form method="post" action="/settings#contact-address" className="flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value="set-contact-email" />
        <FormError message={failure && !Object.keys(failure.fields).length ? failure.formError : undefined} />
        <Field
          label="Public contact address"
          name="contactEmail"
          type="email"
          defaultValue={failure?.values.contactEmail ?? contactEmail}
          maxLength={254}
          autoComplete="off"
          hint="Optional. Shown with your posts; empty shows none."
          error={failure?.fields.contactEmail}
        />
        <div>
          <SubmitButton pendingText="Saving…">Save contact address</SubmitButton>
        </div>
      </Form>
    </Section>
  );
}
