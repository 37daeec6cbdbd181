import { Form } from "@remix-run/react";
import { type FormEvent } from "react";
import { FormError, SubmitButton } from "#app/components/form.tsx";
import { buttonClass } from "#app/components/ui.tsx";
import { confirmAsk } from "#app/lib/dialogs.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { Intent, Proof, Section, type Failure } from "./sections.tsx";

/** The newsletter in one click for an account whose email is verified. */
export function NewsletterSection(props: {
  email: string;
  verified: boolean;
  state: "pending" | "confirmed" | "unsubscribed" | null;
  failure: Failure;
}) {
  const subscribed = props.state === "confirmed";
  return (
    <Section
      id="newsletter"
      title="Newsletter"
      description={
        subscribed
          ? `Every new post goes to ${props.email} as it is published.`
          : "Get every new post by email as it is published. Every message has a one-click unsubscribe."
      }
    >
      {props.failure ? <FormError message={props.failure.formError} /> : null}
      {!props.verified && !subscribed ? (
        <p className="text-sm text-gray-700">
          Verify your email address first (see Email above), or subscribe from the form on the home page.
        </p>
      ) : (
        <Form method="post" action="/settings#newsletter">
          <SubmitButton
            tone={subscribed ? "secondary" : "primary"}
            name="intent"
            value={subscribed ? "newsletter-unsubscribe" : "newsletter-subscribe"}
            pendingText={subscribed ? "Unsubscribing…" : "Subscribing…"}
          >
            {subscribed ? "Unsubscribe" : "Subscribe"}
          </SubmitButton>
        </Form>
      )}
    </Section>
  );
}

export function DataSection() {
  return (
    <Section
      id="data"
      title="Download your data"
      description="A zip of every post you wrote (drafts too) as Markdown with their images, and your profile, comments, likes and saved posts as JSON."
    >
      <a href="/api/auth/export" download className={buttonClass({ tone: "secondary" })}>
        Download my data (.zip)
      </a>
    </Section>
  );
}

export function DeleteSection(props: { hasPassword: boolean; googleConfirmed: boolean; failure: Failure }) {
  const { failure } = props;
  const hydrated = useHydrated();

  // With JavaScript, the site's usual "Are you sure?" dialog asks once more before the form goes.
  async function ask(e: FormEvent<HTMLFormElement>) {
    const form = e.currentTarget;
    if (form.dataset.confirmed === "yes") return;
    e.preventDefault();
    if (!(await confirmAsk("delete"))) return;
    form.dataset.confirmed = "yes";
    form.requestSubmit();
  }

  return (
    <Section
      id="delete-account"
      title="Delete account"
      tone="danger"
      description="Deletes your account with your posts, comments, likes, saved posts, profile and passkeys, and signs you out everywhere. A paid membership is cancelled at once and not charged again. Your email address becomes free to use again. This cannot be undone."
    >
      <Form
        method="post"
        action="/settings#delete-account"
        className="flex max-w-md flex-col gap-4"
        onSubmit={hydrated ? (e) => void ask(e) : undefined}
      >
        <Intent value="delete-account" />
        <FormError message={failure && !Object.keys(failure.fields).length ? failure.formError : undefined} />
        {/* Offered where the decision is made: once deleted, nothing can be exported any more. */}
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Download your data first:{" "}
          <a href="/api/auth/export" download className="font-semibold underline underline-offset-2">
            your posts, comments and profile as a file
          </a>
          .
        </p>
        <Proof {...props} back="/settings#delete-account" label="Your password" />
        <label className="flex items-start gap-2 text-sm text-gray-700">
          <input type="checkbox" name="understood" required className="mt-0.5" />I understand that my account and
          everything in it will be deleted.
        </label>
        <div>
          <button type="submit" className={buttonClass({ tone: "danger" })}>
            Delete my account
          </button>
        </div>
      </Form>
    </Section>
  );
}
