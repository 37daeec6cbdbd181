import { Form, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { CONFIRM_ASK, CONFIRM_TO, CONFIRM_TOKEN, type ConfirmKind } from "#app/lib/confirm.ts";
import { useConfirmToken } from "#app/lib/confirm-signer.ts";
import { confirmAsk } from "#app/lib/dialogs.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";

const tones = {
  danger: "border-red-200 bg-red-50 text-red-700 hover:bg-red-100 focus-visible:outline-red-600",
  primary: "border-brand-600 bg-brand-600 text-white hover:bg-brand-700",
  neutral: "border-gray-300 bg-white text-gray-800 hover:bg-gray-50",
} as const;

/** The look of a table row's action, for buttons and links alike (Edit links sit beside Delete buttons). */
export const rowActionClass = (tone: keyof typeof tones = "neutral") =>
  `inline-flex min-h-9 items-center justify-center gap-1.5 rounded-full border px-3.5 py-1.5 text-sm font-semibold whitespace-nowrap transition disabled:cursor-not-allowed disabled:opacity-60 ${tones[tone]}`;

/**
 * What turns a GET form into the /confirm step (app/lib/confirm.ts): the question, the page the
 * confirmed form posts to, and the server's signed token over these and the form's own `fields` (which
 * go beside them), bound to the session: /confirm arms no form without it. The token exists only in
 * the server's HTML; the browser's first render leaves that attribute as the server wrote it.
 */
export function ConfirmStepFields({ ask, to, fields }: { ask: ConfirmKind; to: string; fields: [string, string][] }) {
  const token = useConfirmToken(ask, to, fields);
  return (
    <>
      <input type="hidden" name={CONFIRM_ASK} value={ask} />
      <input type="hidden" name={CONFIRM_TO} value={to} />
      <input type="hidden" name={CONFIRM_TOKEN} value={token} suppressHydrationWarning />
    </>
  );
}

/** The row's own words for the dialog, or undefined (the kind's usual words) when there are none or they fail. */
async function detailText(url: string | undefined): Promise<string | undefined> {
  if (!url) return undefined;
  try {
    const res = await fetch(url, { headers: { Accept: "application/json" } });
    const body = res.ok ? ((await res.json()) as { text?: unknown }) : null;
    return typeof body?.text === "string" ? body.text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A one-button POST form for row actions (delete, make admin) that asks first. With JavaScript the
 * spec's dialog asks, then the form posts, and the button shows progress and stays disabled until the
 * action has answered, so it cannot be sent twice. Without JavaScript (and before hydration) the
 * button opens the /confirm page instead, which asks in the same words and posts the same fields.
 */
export function ConfirmForm({
  fields,
  ask,
  children,
  pendingText,
  label,
  tone = "neutral",
  disabled = false,
  title,
  detailUrl,
}: {
  /** Hidden inputs: at least `intent` and `id`, which also tell this form's submission apart from others on the page. */
  fields: Record<string, string>;
  /** Which question to ask (the words are in `MSG.confirm`). */
  ask: ConfirmKind;
  /** The visible label; add an sr-only part (the row's name) so table rows' buttons are told apart. */
  children: ReactNode;
  pendingText?: string;
  /** An accessible name for the button; it should start with the visible text. */
  label?: string;
  tone?: keyof typeof tones;
  disabled?: boolean;
  title?: string;
  /** A page answering `{text}`, the dialog's words for this row (what deleting an account takes with it). */
  detailUrl?: string;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  const location = useLocation();
  const pending =
    navigation.state !== "idle" &&
    navigation.formData !== undefined &&
    Object.entries(fields).every(([key, value]) => navigation.formData?.get(key) === value);

  const inputs = Object.entries(fields).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
  const button = (
    <button
      type="submit"
      disabled={disabled || pending}
      aria-label={label}
      aria-busy={pending || undefined}
      title={title}
      className={rowActionClass(tone)}
    >
      {pending ? (
        <span
          className="h-3.5 w-3.5 animate-spin rounded-full border-2 border-current/30 border-t-current"
          aria-hidden="true"
        />
      ) : null}
      {pending ? (pendingText ?? children) : children}
    </button>
  );

  // Asks with the dialog, then posts the fields. The no-JS form has it too: between hydration and the
  // effect that sets `hydrated`, a click would otherwise leave for /confirm with a token React has cleared.
  const askThenPost = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void detailText(detailUrl)
      .then((text) => confirmAsk(ask, text))
      .then((ok) => {
        if (ok) submit(fields, { method: "post" });
      });
  };

  if (!hydrated) {
    return (
      <form method="get" action="/confirm" className="inline" onSubmit={askThenPost}>
        <ConfirmStepFields ask={ask} to={`${location.pathname}${location.search}`} fields={Object.entries(fields)} />
        {inputs}
        {button}
      </form>
    );
  }

  return (
    <Form method="post" className="inline" onSubmit={askThenPost}>
      {inputs}
      {button}
    </Form>
  );
}
