import { data, redirect } from "@remix-run/cloudflare";
import {
  Conflict,
  DomainError,
  Forbidden,
  NotFound,
  RateLimited,
  Unauthorized,
  ValidationError,
  type ErrorKind,
} from "#worker/services/shared/errors.ts";
import type { FormFailure } from "./form-result";
import { loginUrl } from "./guards.server";

export type { FormFailure };

/**
 * The Remix side's one table from a domain error's kind to the status a page answers with (the REST
 * API's is in worker/api/errors.ts). handleForm sends unauthenticated, forbidden and not-found to the
 * login page and the error boundary; the rest come back to the form with this status.
 */
const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "too-large": 413,
  "unsupported-type": 415,
  "rate-limited": 429,
  unavailable: 503,
};

/** The status a page answers a domain error with. */
export function formStatus(error: DomainError): number {
  return STATUS[error.kind];
}

const refused = (status: number, code: string, formError: string, headers?: HeadersInit) =>
  data<FormFailure>({ ok: false, code, formError, fields: {}, values: {} }, { status, headers });

/**
 * The one way page actions read their body. Page forms are POSTs of a form: any other method is a 405
 * (with Allow), any other content type a 415, and a body that cannot be read as a form (a broken
 * multipart, a cut-off upload) a 400, each as the form-error shape and never a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  if (request.method !== "POST") {
    throw refused(405, "method-not-allowed", "This page takes form posts only.", { Allow: "GET, HEAD, POST" });
  }
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(type)) {
    throw refused(415, "unsupported-media-type", "Send the form as a form (urlencoded or multipart).");
  }
  try {
    return await request.formData();
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
 * The Remix side of the error mapping (the REST side is worker/api/errors.ts): validation, conflicts
 * and rate limits come back to the form; no session goes to /login; forbidden and missing records
 * go to the error boundary (403 / 404 pages).
 */
export async function handleForm<T>(request: Request, form: FormData, run: () => Promise<T>) {
  try {
    return await run();
  } catch (err) {
    const values = formValues(form);
    if (err instanceof ValidationError) {
      return data<FormFailure>(
        { ok: false, code: err.code, formError: err.message, fields: err.fields, values },
        { status: 400 },
      );
    }
    if (err instanceof Unauthorized) throw redirect(loginUrl(request));
    if (err instanceof Forbidden) throw new Response(err.message, { status: 403 });
    if (err instanceof NotFound) throw new Response(err.message, { status: 404 });
    if (err instanceof Conflict || err instanceof RateLimited || err instanceof DomainError) {
      return data<FormFailure>(
        { ok: false, code: err.code, formError: err.message, fields: {}, values },
        { status: formStatus(err), headers: retryAfter(err) },
      );
    }
    throw err;
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
