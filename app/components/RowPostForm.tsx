import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { rowActionClass } from "#app/components/ConfirmForm.tsx";

/**
 * A one-button POST form for a row action that needs no question first (approve, hide, feature): a plain
 * form that works without JavaScript, and with it shows progress until the action has answered.
 */
export function RowPostForm({
  fields,
  children,
  pendingText,
  tone = "neutral",
  pressed,
}: {
  /** Hidden inputs: at least `intent` and `id`, which also tell this form's submission apart from others. */
  fields: Record<string, string>;
  children: ReactNode;
  pendingText?: string;
  tone?: "neutral" | "primary" | "danger";
  /** For a toggle: whether it is on now (aria-pressed). */
  pressed?: boolean;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state !== "idle" &&
    navigation.formData !== undefined &&
    Object.entries(fields).every(([key, value]) => navigation.formData?.get(key) === value);
  return (
    <Form method="post" className="inline" preventScrollReset>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending || undefined}
        aria-pressed={pressed}
        className={rowActionClass(tone)}
      >
        {pending ? (pendingText ?? children) : children}
      </button>
    </Form>
  );
}
