import { useEffect, useId, useRef } from "react";
import { FieldError } from "./form";
import { UTC_OFFSET, localInputValue, localOffset, utcInputValue } from "#app/lib/datetime.ts";

/**
 * A datetime-local input plus a hidden `tz` field (see app/lib/datetime.ts). The server renders the
 * instant in UTC; once hydrated the field switches to the writer's own zone, unless it shows what the
 * writer submitted (then it is left exactly as typed).
 */
export function DateTimeField({
  name = "date_time",
  label,
  instant,
  submitted,
  required = false,
  error,
}: {
  name?: string;
  label: string;
  /** The stored instant to show (ISO); now when absent. */
  instant?: string | null;
  /** What the form sent last time, when the server refused it. */
  submitted?: { value: string; tz: string } | null;
  required?: boolean;
  error?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const tz = useRef<HTMLInputElement>(null);
  const initial = useRef(instant ?? new Date().toISOString());

  useEffect(() => {
    if (submitted || !input.current || !tz.current) return;
    input.current.value = localInputValue(initial.current);
    tz.current.value = localOffset(new Date(initial.current));
  }, [submitted]);

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-800">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        name={name}
        type="datetime-local"
        required={required}
        defaultValue={submitted ? submitted.value : utcInputValue(initial.current)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-500"
      />
      <input ref={tz} type="hidden" name="tz" defaultValue={submitted ? submitted.tz : UTC_OFFSET} />
      <FieldError id={id} error={error} />
    </div>
  );
}
