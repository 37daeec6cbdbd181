import { Form, useNavigation, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";

const tones = {
  danger: "border-red-200 bg-red-50 text-red-700 hover:bg-red-100 focus-visible:outline-red-600",
  primary: "border-brand-600 bg-brand-600 text-white hover:bg-brand-700",
  neutral: "border-gray-300 bg-white text-gray-800 hover:bg-gray-50",
} as const;

/** The look of a table row's action, for buttons and links alike (Edit links sit beside Delete buttons). */
export const rowActionClass = (tone: keyof typeof tones = "neutral") =>
  `inline-flex min-h-9 items-center justify-center gap-1.5 rounded-full border px-3.5 py-1.5 text-sm font-semibold whitespace-nowrap transition disabled:cursor-not-allowed disabled:opacity-60 ${tones[tone]}`;

/**
 * A one-button POST form for row actions (delete, make admin). Without JavaScript it posts at once
 * (the action still checks everything); with it, `confirm` asks first, and the button shows progress
 * and stays disabled until the action has answered, so it cannot be sent twice.
 */
export function ConfirmForm({
  fields,
  confirm,
  children,
  pendingText,
  label,
  tone = "neutral",
  disabled = false,
  title,
}: {
  /** Hidden inputs: at least `intent` and `id`, which also tell this form's submission apart from others on the page. */
  fields: Record<string, string>;
  confirm?: () => Promise<boolean>;
  /** The visible label; add an sr-only part (the row's name) so table rows' buttons are told apart. */
  children: ReactNode;
  pendingText?: string;
  /** An accessible name for the button; it should start with the visible text. */
  label?: string;
  tone?: keyof typeof tones;
  disabled?: boolean;
  title?: string;
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const pending =
    navigation.state !== "idle" &&
    navigation.formData !== undefined &&
    Object.entries(fields).every(([key, value]) => navigation.formData?.get(key) === value);

  return (
    <Form
      method="post"
      className="inline"
      onSubmit={(event) => {
        if (!confirm) return;
        event.preventDefault();
        const form = event.currentTarget;
        void confirm().then((ok) => {
          if (ok) submit(form, { method: "post" });
        });
      }}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
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
    </Form>
  );
}
