import { Form } from "@remix-run/react";
import { Field, FormError, SubmitButton } from "#app/components/form.tsx";
import type { FormFailure } from "#app/lib/form-result.ts";
import { Section } from "./sections";

/** The writer's fediverse handle: `@handle@host`, how people follow them from Mastodon. */
export function FediverseSection({
  handle,
  host,
  failure,
}: {
  handle: string;
  host: string;
  failure: FormFailure | null;
}) {
  return (
    <Section
      id="fediverse"
      title="Fediverse handle"
      description={`People on Mastodon and other fediverse servers follow you as @handle@${host}. Your posts reach them whole when they become public, and their replies show under your posts as comments. Changing the handle keeps your followers; links with the old handle stop working.`}
    >
      <Form method="post" action="/settings#fediverse" className="flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value="set-handle" />
        <FormError message={failure && !Object.keys(failure.fields).length ? failure.formError : undefined} />
        <Field
          label="Handle"
          name="handle"
          defaultValue={failure?.values.handle ?? handle}
          required
          maxLength={30}
          autoComplete="off"
          hint={`Your address: @${handle}@${host}. 1 to 30 letters, digits, '-' or '_'.`}
          error={failure?.fields.handle}
        />
        <div>
          <SubmitButton pendingText="Saving…">Save handle</SubmitButton>
        </div>
      </Form>
    </Section>
  );
}
