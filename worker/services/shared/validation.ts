import { z } from "zod";
import { ValidationError, type FieldErrors } from "#worker/services/shared/errors.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";

// Zod probes `new Function("")` once to decide on its compiled parsers. Workers refuse it anyway, and in
// a browser (the pages' forms share these schemas) the probe is a script-src violation of our CSP.
z.config({ jitless: true });

/** Re-exported so services keep importing every validation helper from here. */
export { LIMITS };

/** Parses untrusted input with a zod schema; failures become a ValidationError with one message per field. */
export function parse<S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: { missingCode?: string } = {},
): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw invalidInput(result.error.issues, input, options);
}

/**
 * The ValidationError of a failed parse: one message per field ("body" for the whole input). The REST
 * routes' contract (worker/api/contract.ts) answers its own failures with this too, so both read alike.
 */
export function invalidInput(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  options: { missingCode?: string } = {},
): ValidationError {
  const fields: FieldErrors = {};
  let missing = false;
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "body";
    fields[key] ??= issue.message;
    if (issue.path.length === 1 && isBlank((input as Record<PropertyKey, unknown> | null)?.[issue.path[0]!]))
      missing = true;
  }
  // A form that left a field out or empty may have words of its own for that (code `missingCode`).
  if (missing && options.missingCode)
    return new ValidationError(fields, "Some fields are missing.", options.missingCode);
  return new ValidationError(fields);
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

const missingOr = (label: string, wrong: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? `${label} is required.` : `${label} ${wrong}`;

// Browsers submit a textarea's line breaks as CRLF: stored text uses LF, so an unchanged form compares equal.
const trimmed = (max: number, label: string) =>
  z
    .string({ error: missingOr(label, "must be text.") })
    .overwrite((v) => v.replace(/\r\n?/g, "\n"))
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters.` });

/** A required text field: trimmed, not empty, bounded. */
export const requiredText = (label: string, max: number) =>
  trimmed(max, label).min(1, { error: `${label} is required.` });

/** An optional text field: missing, null or blank all mean "not given". */
export const optionalText = (label: string, max: number) =>
  z.preprocess(
    (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
    trimmed(max, label).optional(),
  );

/**
 * An optional text field a person can empty: missing keeps what is stored (undefined), while null or blank
 * is an answer, "nothing" (""), so a bio emptied and saved is saved empty.
 */
export const clearableText = (label: string, max: number) =>
  z.preprocess((v) => (v === null ? "" : v), trimmed(max, label).optional());

export const emailField = (label = "Email") =>
  z
    .string({ error: missingOr(label, "must be text.") })
    .trim()
    .min(1, { error: `${label} is required.` })
    .max(LIMITS.email, { error: `${label} is too long.` })
    .pipe(z.email({ error: "Please enter a valid email" }))
    .transform((v) => v.toLowerCase());

/** http(s) URLs, or a path to one of our own stored images. */
export function isAllowedUrl(value: string): boolean {
  if (/^\/images\/[0-9a-z][0-9a-z_-]{7,80}\.(jpg|png|webp|gif|avif)$/.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

export const urlField = (label: string) =>
  z
    .string({ error: missingOr(label, "must be a link.") })
    .trim()
    .max(LIMITS.url, { error: `${label} is too long.` })
    .refine(isAllowedUrl, { error: `${label} must be an http(s) link or an uploaded image.` });

export const optionalUrl = (label: string) =>
  z.preprocess(
    (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
    urlField(label).optional(),
  );

export const requiredUrl = (label: string) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), urlField(label));

/** Ratings run 0 to 5 in half steps. */
export const ratingField = z.coerce
  .number({ error: "Rating must be a number." })
  .min(0, { error: "Rating must be between 0 and 5." })
  .max(5, { error: "Rating must be between 0 and 5." })
  .refine((n) => Number.isInteger(n * 2), { error: "Rating must be in half steps." });
