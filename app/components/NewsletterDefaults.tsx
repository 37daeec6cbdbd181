import { Form } from "@remix-run/react";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import type { FormFailure } from "#app/lib/form-result.ts";

export const CONTENT_CHOICES = [
  { value: "teaser", label: "The teaser and a link" },
  { value: "full", label: "The whole post" },
] as const;

export const AUDIENCE_CHOICES = [
  { value: "everyone", label: "Every subscriber" },
  { value: "free", label: "Free subscribers only" },
  { value: "paid", label: "Paying members only" },
] as const;

/** A send's audience as the sends table says it. */
export const AUDIENCE_LABEL: Record<string, string> = { everyone: "Everyone", free: "Free", paid: "Paying members" };

function Choices({
  name,
  legend,
  choices,
  chosen,
  hideLegend = false,
}: {
  name: string;
  legend: string;
  choices: readonly { value: string; label: string }[];
  chosen: string;
  hideLegend?: boolean;
}) {
  return (
    <fieldset className="flex flex-col gap-2 text-sm text-gray-800">
      <legend className={hideLegend ? "sr-only" : "mb-1 font-semibold text-ink"}>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="inline-flex items-center gap-2">
          <input
            type="radio"
            name={name}
            value={choice.value}
            defaultChecked={chosen === choice.value}
            className="h-4 w-4 border-gray-300"
          />
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The Newsletter page's defaults for posts mailed from now on, in one form: what subscribers get (the teaser or
 * the whole post) and who gets it (everyone, free subscribers, paying members). Both are checked before either
 * is stored (`newsletter.setDefaults`).
 */
export function NewsletterDefaults({
  content,
  audience,
  failure,
}: {
  content: string;
  audience: string;
  failure: FormFailure | null;
}) {
  return (
    <section aria-labelledby="content-heading" className="mb-10 flex flex-col gap-3">
      <h2 id="content-heading" className="text-lg font-semibold text-ink">
        What subscribers get
      </h2>
      {failure?.fields.content ? <FormError message={failure.fields.content} /> : null}
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="content" />
        <Choices name="content" legend="What subscribers get" choices={CONTENT_CHOICES} chosen={content} hideLegend />
        {failure?.fields.audience ? <FormError message={failure.fields.audience} /> : null}
        <Choices name="audience" legend="Who gets new posts" choices={AUDIENCE_CHOICES} chosen={audience} />
        <p className="text-xs text-gray-600">
          The defaults for every post mailed from now on. In a post&apos;s editor, a post can choose what it sends (In
          the newsletter), and an admin can choose who gets it (Send the newsletter to). Paying members are subscribers
          whose confirmed account has a paid plan or a complimentary one.
        </p>
        <div>
          <SubmitButton pendingText="Saving…">Save</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
