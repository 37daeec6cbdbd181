import { data, redirect } from "@remix-run/cloudflare";
import {
  Conflict,
  DomainError,
  Forbidden,
  NotFound,
  RateLimited,
  ValidationError,
  type ErrorKind,
} from "#worker/services/shared/errors.ts";
import { readBytesUpTo } from "#worker/http/bytes.ts";
import { MAX_IMPORT_BYTES } from "#worker/services/import/archive.ts";
import { MAX_IMAGE_BYTES } from "#worker/services/images/service.ts";
import { IMPORT_MAX_BYTES } from "#worker/services/newsletter/model.ts";
import type { FormFailure } from "./form-result";
import { loginUrl } from "./guards.server";
import { ERROR_WORDS } from "./messages";

export type { FormFailure };

/**
 * The Remix adapter's one map from a domain error's kind to a page's answer (the REST API's is in
 * worker/api/errors.ts): back to the form with a status, or the error page (403, 404). An action that
 * needs a session and has none (code "unauthorized") goes to /login instead; a refused sign-in (wrong
 * password, unknown passkey) is unauthenticated too, and is answered in its form.
 */
const PAGE_ANSWER: Record<ErrorKind, { status: number; page?: "error" }> = {
  invalid: { status: 400 },
  unauthenticated: { status: 401 },
  forbidden: { status: 403, page: "error" },
  "not-found": { status: 404, page: "error" },
  gone: { status: 410, page: "error" },
  conflict: { status: 409 },
  "too-large": { status: 413 },
  "unsupported-type": { status: 415 },
  "rate-limited": { status: 429 },
  unavailable: { status: 503 },
};

/** The status a page answers a domain error with. */
export function formStatus(error: DomainError): number {
  return PAGE_ANSWER[error.kind].status;
}

/** The words a page shows for a refusal: the spec's, by code, else the service's own sentence. */
export const errorWords = (error: DomainError): string => ERROR_WORDS[error.code] ?? error.message;

const refused = (status: number, code: string, formError: string, headers?: HeadersInit) =>
  data<FormFailure>({ ok: false, code, formError, fields: {}, values: {} }, { status, headers });

/** Room for the multipart boundaries, the part headers and the text fields around a form's file. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * What a page form may send, as the API caps its bodies (worker/api/body.ts): a text form by default
 * (a 50,000-character post, URL-encoded, fits with room), or a form that carries one image, a post's
 * two (its cover and its social image), a subscriber CSV or an export file. Past it the answer is 413,
 * read no further.
 */
export const FORM_BYTES = {
  text: 1024 * 1024,
  image: MAX_IMAGE_BYTES + FORM_OVERHEAD_BYTES,
  post: 2 * MAX_IMAGE_BYTES + FORM_OVERHEAD_BYTES,
  csv: IMPORT_MAX_BYTES + FORM_OVERHEAD_BYTES,
  import: MAX_IMPORT_BYTES + FORM_OVERHEAD_BYTES,
} as const;
export type FormSize = keyof typeof FORM_BYTES;

export const FORM_TOO_LARGE = "That is more than this form takes. Send less (a smaller file, a shorter text).";

/**
 * The one way page actions read their body. Page forms are POSTs of a form: any other method is a 405
 * (with Allow), any other content type a 415, a body past its size (FORM_BYTES, a text form's unless
 * the route names an upload) a 413 as soon as it is known (a lying or absent Content-Length is counted
 * as it arrives), and a body that cannot be read as a form (a broken multipart, a cut-off upload) a
 * 400, each as the form-error shape and never a 500.
 */
export async function readForm(request: Request, size: FormSize = "text"): Promise<FormData> {
  if (request.method !== "POST") {
    throw refused(405, "method-not-allowed", "This page takes form posts only.", { Allow: "GET, HEAD, POST" });
  }
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(type)) {
    throw refused(415, "unsupported-media-type", "Send the form as a form (urlencoded or multipart).");
  }
  const max = FORM_BYTES[size];
  const tooLarge = () => refused(413, "payload-too-large", FORM_TOO_LARGE);
  if (Number(request.headers.get("Content-Length") ?? "0") > max) {
    await request.body?.cancel();
    throw tooLarge();
  }
  const overflow = new Error("form body over its cap");
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBytesUpTo(request.body, max, () => overflow);
  } catch (err) {
    if (err === overflow) throw tooLarge();
    throw refused(400, "unreadable-form", "The request body is not a readable form.");
  }
  try {
    return await new Response(bytes, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw refused(400, "unreadable-form", "The request body is not a readable form.");
  }
}

/** Text fields of a submitted form (files and passwords are never echoed back). */
export function formValues(form: FormData, omit: string[] = ["password"]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && !omit.includes(key)) values[key] = value;
  }
  return values;
}

/**
 * The one way a page action turns a refusal into an answer (the REST side is worker/api/errors.ts),
 * by PAGE_ANSWER: the form again with the words, field messages and typed values (never a password),
 * /login for a missing session, or the 403 / 404 page. Anything that is not a domain error is a bug
 * and goes on to the error boundary (500), never dressed up as a refusal.
 */
export async function handleForm<T>(request: Request, form: FormData, run: () => Promise<T>) {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.kind === "unauthenticated" && err.code === "unauthorized") throw redirect(loginUrl(request));
    const answer = PAGE_ANSWER[err.kind];
    if (answer.page === "error") throw new Response(err.message, { status: answer.status });
    const fields = err instanceof ValidationError || err instanceof Conflict ? err.fields : {};
    return data<FormFailure>(
      { ok: false, code: err.code, formError: errorWords(err), fields, values: formValues(form) },
      { status: answer.status, headers: retryAfter(err) },
    );
  }
}

/** Loaders: a missing record or forbidden access becomes the 404 / 403 page; a bad ?page or ?limit the 400 page. */
export async function loadOr404<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ValidationError) throw new Response(err.message, { status: 400 });
    if (err instanceof NotFound) throw new Response(err.message, { status: 404 });
    if (err instanceof Forbidden) throw new Response(err.message, { status: 403 });
    throw err;
  }
}

/** The answer to a form whose intent the route does not know: the same 400 for every route. */
export function unknownAction(form: FormData) {
  return data<FormFailure>(
    { ok: false, code: "unknown-action", formError: "Unknown action.", fields: {}, values: formValues(form) },
    { status: 400 },
  );
}

/** A refusal for too many attempts says when to come back (429 with Retry-After). */
export function retryAfter(err: unknown): Record<string, string> | undefined {
  return err instanceof RateLimited ? { "Retry-After": String(err.retryAfterSeconds) } : undefined;
}
