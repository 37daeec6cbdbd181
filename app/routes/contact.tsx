import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import { EmailField, Field, FormError, NameField, SubmitButton, TextArea } from "#app/components/form.tsx";
import { SOCIAL_ICONS } from "#app/components/icons.tsx";
import { READING_TIPS } from "#app/lib/content.ts";
import { alertDialog } from "#app/lib/dialogs.ts";
import { refusal } from "#app/lib/form-result.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { seo } from "#app/lib/seo.ts";
import { SOCIAL_LINKS } from "#app/lib/site.ts";
import { CONTACT_HONEYPOT, LIMITS } from "#worker/services/shared/limits.ts";
import { containerClass } from "#app/components/ui.tsx";

const DESCRIPTION = (brand: string) =>
  `Questions, ideas or feedback about ${brand}? Send us a message and we will get back to you shortly.`;

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) =>
  d
    ? seo({
        brand: brandOf(matches),
        title: "Contact",
        description: DESCRIPTION(brandOf(matches)),
        origin: d.origin,
        path: "/contact",
      })
    : [{ title: `Contact | ${brandOf(matches)}` }];

/** No D1: the signed-in person's name and email (prefilled) come from the session. */
export function loader({ context, request }: LoaderFunctionArgs) {
  const user = context.user;
  return {
    origin: new URL(request.url).origin,
    signedIn: user !== null,
    name: user?.name ?? "",
    email: user?.email ?? "",
  };
}

/**
 * Anyone may send (A visitor's message, even from someone locked out of their account), behind
 * the per-account or per-address limit and a honeypot field (worker/services/contact.ts).
 */
export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  // A refusal (fields, too many messages) comes back to the form; D1 not answering is the Worker's 503
  // page (worker/app.ts); anything else is a bug and goes to the error boundary, never hidden as a 503.
  return handleForm(request, form, async () => {
    await context.services.contact.send(
      context.user,
      {
        name: form.get("name"),
        email: form.get("email"),
        subject: form.get("subject"),
        message: form.get("message"),
        [CONTACT_HONEYPOT]: form.get(CONTACT_HONEYPOT),
      },
      request.headers.get("CF-Connecting-IP"),
    );
    return { ok: true as const };
  });
}

export default function Contact() {
  const { signedIn, name, email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const form = useRef<HTMLFormElement>(null);
  const failure = refusal(result) ?? undefined;
  const sent = result !== undefined && !failure;
  // Validation refusals are shown beside the fields; anything else is the spec's failure message.
  const sendFailed = failure && Object.keys(failure.fields).length === 0;
  const values = failure?.values ?? {};

  useOnActionResult(result, () => {
    if (!result) return;
    if (sent) {
      form.current?.reset();
      void alertDialog(MSG.contact.successTitle, MSG.contact.successText, "success");
    } else if (sendFailed) {
      void alertDialog(MSG.contact.errorTitle, MSG.contact.errorText, "error");
    }
  });

  return (
    <>
      <header className="border-b border-gray-200 bg-gradient-to-b from-brand-50 to-white">
        <div className={containerClass({ className: "py-12 sm:py-14" })}>
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">We read every message</p>
          <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">Contact Us</h1>
          <p className="mt-4 max-w-2xl text-lg text-gray-600">
            A question about a post, an idea for the site or a problem with your account? Write to us and we will get
            back to you shortly.
          </p>
        </div>
      </header>

      <div
        className={containerClass({ className: "grid grid-cols-1 gap-10 py-12 lg:grid-cols-[minmax(0,1fr)_22rem]" })}
      >
        <section
          aria-labelledby="contact-form-heading"
          className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8"
        >
          <h2 id="contact-form-heading" className="text-xl font-bold text-ink">
            Send us a message
          </h2>
          {signedIn ? null : (
            <p className="mt-2 text-sm text-gray-600">
              No account needed: we will answer at the email address you give.
            </p>
          )}
          {sent ? (
            <div
              role="status"
              className="mt-4 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800"
            >
              <strong className="font-semibold">{MSG.contact.successTitle}</strong> {MSG.contact.successText}
            </div>
          ) : null}
          {sendFailed ? (
            <div className="mt-4">
              <FormError
                message={`${MSG.contact.errorTitle} ${failure?.code === "rate-limited" ? failure.formError : MSG.contact.errorText}`}
              />
            </div>
          ) : null}

          <Form ref={form} method="post" className="mt-6 grid gap-5 sm:grid-cols-2" noValidate>
            <NameField defaultValue={values.name ?? name} error={failure?.fields.name} />
            <EmailField defaultValue={values.email ?? email} error={failure?.fields.email} />
            <div className="sm:col-span-2">
              <Field
                label="Subject (optional)"
                name="subject"
                maxLength={LIMITS.subject}
                defaultValue={values.subject ?? ""}
                error={failure?.fields.subject}
              />
            </div>
            <div className="sm:col-span-2">
              <TextArea
                label="Message"
                name="message"
                rows={6}
                required
                maxLength={LIMITS.message}
                defaultValue={values.message ?? ""}
                error={failure?.fields.message}
              />
            </div>
            {/* The honeypot: people never see or reach it; robots that fill every field do. */}
            <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
              <label>
                Leave this empty
                <input type="text" name={CONTACT_HONEYPOT} tabIndex={-1} autoComplete="off" defaultValue="" />
              </label>
            </div>
            <div className="sm:col-span-2">
              <SubmitButton pendingText="Sending…">Send Message</SubmitButton>
            </div>
          </Form>
        </section>

        <aside aria-label="More ways to connect" className="flex flex-col gap-6">
          <section
            aria-labelledby="contact-social"
            className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm"
          >
            <h2 id="contact-social" className="text-base font-bold text-ink">
              Follow us
            </h2>
            <p className="mt-1 text-sm text-gray-600">New posts, reading lists and community picks every week.</p>
            <ul className="mt-4 grid grid-cols-2 gap-2">
              {SOCIAL_LINKS.map((s) => {
                const Icon = SOCIAL_ICONS[s.name];
                return (
                  <li key={s.name}>
                    <a
                      href={s.href}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="flex items-center gap-2 rounded-xl border border-gray-200 px-3 py-2 text-sm font-medium text-gray-800 hover:border-brand-500 hover:text-brand-700"
                    >
                      <Icon width={18} height={18} />
                      {s.name}
                      <span className="sr-only"> (opens in a new tab)</span>
                    </a>
                  </li>
                );
              })}
            </ul>
          </section>

          <section aria-labelledby="contact-tips" className="rounded-2xl border border-gray-200 bg-brand-50/60 p-6">
            <h2 id="contact-tips" className="text-base font-bold text-ink">
              Build an everyday reading habit
            </h2>
            <ol className="mt-4 flex flex-col gap-4">
              {READING_TIPS.slice(0, 4).map((tip, i) => (
                <li key={tip.title} className="flex gap-3">
                  <span
                    aria-hidden="true"
                    className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-bold text-white"
                  >
                    {i + 1}
                  </span>
                  <div>
                    <p className="text-sm font-semibold text-ink">{tip.title}</p>
                    <p className="mt-0.5 text-sm text-gray-700">{tip.text}</p>
                  </div>
                </li>
              ))}
            </ol>
          </section>
        </aside>
      </div>
    </>
  );
}
