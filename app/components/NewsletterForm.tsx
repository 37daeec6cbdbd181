import { useActionData, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { MSG } from "#app/lib/messages.ts";
import type { FormFailure } from "#app/lib/form-result.ts";
import { newsletterFromPost } from "#app/lib/newsletter-from.ts";

export type NewsletterResult = { ok: true; already?: boolean } | FormFailure;

/**
 * Email and Subscribe Now. With JavaScript it posts in the background (the page stays where it is);
 * without, the same form posts to the home page's action and the answer is read from the action
 * data. Either way the message appears below the field, and the field is cleared after success.
 */
export function NewsletterForm() {
  const fetcher = useFetcher<NewsletterResult>();
  const posted = useActionData<NewsletterResult>();
  const result = fetcher.data ?? posted;
  const form = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";
  // The post the reader came from (a post's "Get new posts by email" link, ?from=, or this site's
  // /blogs/{id}/... as the referrer): a subscription it brings is credited to it
  // in the analytics. Read in the browser: the page itself is the same cached copy for everyone.
  const [fromPost, setFromPost] = useState("");
  useEffect(() => setFromPost(newsletterFromPost()), []);

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) form.current?.reset();
  }, [fetcher.state, fetcher.data]);

  const error = result && !result.ok ? (result.fields.email ?? result.formError ?? MSG.newsletter.empty) : null;
  const kept = result && !result.ok ? (result.values.email ?? "") : "";

  return (
    <fetcher.Form ref={form} method="post" action="/?index#newsletter" className="mx-auto w-full max-w-xl">
      <input type="hidden" name="intent" value="newsletter" />
      {/* Always there (empty when there is no post to credit), so the reading pages' island can fill it too. */}
      <input type="hidden" name="from" value={fromPost} data-newsletter-from="" />
      <div className="flex flex-col gap-3 sm:flex-row">
        <label htmlFor="newsletter-email" className="sr-only">
          Email address
        </label>
        <input
          // A new key after each answer makes the server's value (kept on error, empty on success) the field's value.
          key={result ? (result.ok ? "done" : `error:${kept}`) : "fresh"}
          id="newsletter-email"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="Enter your email"
          defaultValue={kept}
          aria-invalid={error ? true : undefined}
          aria-describedby="newsletter-message"
          className="min-w-0 flex-1 rounded-full border-0 bg-white px-5 py-3 text-base text-ink shadow-sm placeholder:text-gray-500 focus:outline-none focus-visible:ring-4 focus-visible:ring-white/60"
        />
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy || undefined}
          // Dark: the ink fill turns brand blue, the card's own colour, so a light ring draws its edge.
          className="rounded-full bg-ink px-6 py-3 text-base font-semibold text-white shadow-sm transition hover:bg-black disabled:cursor-wait disabled:opacity-80 dark:ring-2 dark:ring-white/80"
        >
          {busy ? "Subscribing…" : "Subscribe Now"}
        </button>
      </div>
      <div id="newsletter-message" aria-live="polite" className="mt-3 min-h-[2.25rem] text-center">
        {error ? (
          <p role="alert" className="inline-block rounded-full bg-white px-4 py-1.5 text-sm font-medium text-red-700">
            {error}
          </p>
        ) : result?.ok ? (
          <p
            role="status"
            className="inline-block rounded-full bg-white px-4 py-1.5 text-sm font-medium text-green-800"
          >
            {result.already ? MSG.newsletter.already : `${MSG.newsletter.success} ${MSG.newsletter.checkInbox}`}
          </p>
        ) : null}
      </div>
    </fetcher.Form>
  );
}
