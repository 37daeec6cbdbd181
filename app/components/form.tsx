import { useNavigation } from "@remix-run/react";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { buttonClass } from "./ui";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { useEffect, useId, useRef } from "react";

const control =
  "block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-ink shadow-sm placeholder:text-gray-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:bg-gray-100 disabled:text-gray-500 [&[readonly]]:bg-gray-50 [&[readonly]]:text-gray-600 aria-[invalid=true]:border-red-500";

function Wrapper({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-800">
        {label}
      </label>
      {children}
      {hint ? <p className="text-xs text-gray-500">{hint}</p> : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

type Common = { label: string; error?: string; hint?: ReactNode };

export function Field({ label, error, hint, id, ...props }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <Wrapper id={fieldId} label={label} error={error} hint={hint}>
      <input
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        className={control}
        {...props}
      />
    </Wrapper>
  );
}

export function TextArea({ label, error, hint, id, ...props }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <Wrapper id={fieldId} label={label} error={error} hint={hint}>
      <textarea
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        className={`${control} min-h-28`}
        {...props}
      />
    </Wrapper>
  );
}

export function Select({
  label,
  error,
  hint,
  id,
  children,
  ...props
}: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <Wrapper id={fieldId} label={label} error={error} hint={hint}>
      <select
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        className={control}
        {...props}
      >
        {children}
      </select>
    </Wrapper>
  );
}

/** Shows progress while its form submits and cannot be pressed twice. */
export function SubmitButton({
  children,
  pendingText,
  className = "",
  name,
  value,
  tone,
  formNoValidate,
}: {
  children: ReactNode;
  pendingText?: string;
  className?: string;
  name?: string;
  value?: string;
  tone?: "primary" | "secondary";
  /** Skips the browser's `required` checks (Save draft: a draft needs only a title, the server checks). */
  formNoValidate?: boolean;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && (name === undefined || navigation.formData?.get(name) === value);
  return (
    <button
      type="submit"
      name={name}
      value={value}
      formNoValidate={formNoValidate}
      disabled={pending}
      aria-busy={pending || undefined}
      className={buttonClass({ tone, className })}
    >
      {pending ? (
        <span
          className={`h-4 w-4 animate-spin rounded-full border-2 ${tone === "secondary" ? "border-gray-300 border-t-gray-700" : "border-white/40 border-t-white"}`}
          aria-hidden="true"
        />
      ) : null}
      {pending ? (pendingText ?? "Saving…") : children}
    </button>
  );
}

/**
 * A refused form's error summary. It takes the focus and scrolls itself into view when it appears (or its
 * message changes), so a person who pressed a button at the foot of a long form on a phone sees what went
 * wrong instead of nothing. Every form's summary is this one piece.
 */
export function FormError({ message, title }: { message?: string; title?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message && ref.current) revealError(ref.current);
  }, [message, title]);
  if (!message) return null;
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      data-error-summary=""
      className="scroll-mt-24 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-400"
    >
      {title ? <strong className="font-semibold">{title}</strong> : null}
      {title ? " " : null}
      {message}
    </div>
  );
}

/**
 * The message under a field that was refused, tied to it by aria-describedby (`${id}-error`). When a form
 * has no summary on screen, the first refused field takes the focus and is scrolled into view instead.
 */
export function FieldError({ id, error }: { id?: string; error?: string }) {
  useEffect(() => {
    if (!error || document.querySelector("[data-error-summary]")) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.getAttribute("aria-invalid") === "true") return;
    const first = document.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (first) revealError(first);
  }, [error]);
  return error ? (
    <p id={`${id}-error`} className="text-sm text-red-600" role="alert">
      {error}
    </p>
  ) : null;
}

/**
 * Focus without the browser's own jump, then bring the element to the middle of the screen (at once: a
 * smooth scroll would be cut short by the error dialog that some forms open next).
 */
export function revealError(el: HTMLElement) {
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "center" });
}

type FieldProps = Common & InputHTMLAttributes<HTMLInputElement>;

/** A person's name: required, up to LIMITS.name, autofilled. */
export function NameField(props: Omit<FieldProps, "label" | "name">) {
  return <Field label="Name" name="name" autoComplete="name" required maxLength={LIMITS.name} {...props} />;
}

export function EmailField(props: Omit<FieldProps, "label" | "name" | "type">) {
  return (
    <Field label="Email" name="email" type="email" autoComplete="email" required maxLength={LIMITS.email} {...props} />
  );
}

/** A job title ("Product Designer"): profiles and reviews. */
export function DesignationField(props: Omit<FieldProps, "label" | "name">) {
  return (
    <Field
      label="Designation"
      name="designation"
      required
      maxLength={LIMITS.designation}
      autoComplete="organization-title"
      {...props}
    />
  );
}
