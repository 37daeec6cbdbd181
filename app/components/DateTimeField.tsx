import { useEffect, useId, useRef, useState } from "react";
import { FieldError } from "./form";
import { DEFAULT_ZONE, TIME_ZONES, browserZone, localInputValue, utcInputValue } from "#app/lib/datetime.ts";

/**
 * A datetime-local input plus the zone it is read in (`tz`, see app/lib/datetime.ts). The server renders
 * the instant in UTC with UTC chosen, so the pair is consistent without JavaScript, and a writer there
 * picks their zone. Once hydrated both switch to the browser's zone, unless they show what the writer
 * submitted (then they stay exactly as sent). The zone is React state, never a DOM value set behind
 * React's back: a re-render would put an uncontrolled input's default back (the bug of issue 43).
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
  const initial = useRef(instant ?? new Date().toISOString());
  const [zone, setZone] = useState(submitted?.tz || DEFAULT_ZONE);

  useEffect(() => {
    if (submitted || !input.current) return;
    input.current.value = localInputValue(initial.current);
    setZone(browserZone());
  }, [submitted]);

  const zones: readonly string[] = TIME_ZONES.includes(zone as (typeof TIME_ZONES)[number])
    ? TIME_ZONES
    : [zone, ...TIME_ZONES];
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
      <label className="flex items-center gap-2 text-xs text-gray-600">
        <span>Time zone</span>
        <select
          name="tz"
          value={zone}
          onChange={(e) => setZone(e.target.value)}
          className="rounded border border-gray-300 bg-white px-2 py-1 text-xs text-ink"
        >
          {zones.map((z) => (
            <option key={z} value={z}>
              {z.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </label>
      <FieldError id={id} error={error} />
    </div>
  );
}
