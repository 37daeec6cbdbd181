/**
 * The one shape of a refused form, as the page action answers it (`handleForm` in forms.server.ts)
 * and as components read it: the form's message, the messages beside the fields, and the values to
 * put back (never passwords or files). Client-safe, so components and actions share it.
 */
export interface FormFailure {
  ok: false;
  code?: string;
  formError?: string;
  fields: Record<string, string>;
  values: Record<string, string>;
}

/** The action's refusal, or null when the answer is anything else (success, nothing yet). */
export function refusal(result: unknown): FormFailure | null {
  return typeof result === "object" && result !== null && (result as { ok?: unknown }).ok === false
    ? (result as FormFailure)
    : null;
}

/** What a refused form says in its dialog: the field messages, or the form's own message. */
export function failureText(failure: { formError?: string; fields: Record<string, string> }, fallback: string): string {
  const fields = Object.values(failure.fields);
  return fields.length ? fields.join("\n") : (failure.formError ?? fallback);
}

/**
 * A refusal that is about the schedule date alone ("set its date and time in the future"): the form's
 * error summary says it once, focused, so neither a dialog nor the date field repeats it.
 */
export function scheduleOnly(failure: { fields: Record<string, string> } | null | undefined, message: string): boolean {
  const entries = Object.entries(failure?.fields ?? {});
  return entries.length === 1 && entries[0]![0] === "date_time" && entries[0]![1] === message;
}
