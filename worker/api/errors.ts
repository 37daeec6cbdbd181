import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, RateLimited, ValidationError, type ErrorKind } from "#worker/services/shared/errors.ts";
import { logError } from "#worker/log.ts";

/** The Hono side's one table from a domain error's kind to its HTTP status (the pages' is in app/lib/forms.server.ts). */
const STATUS: Record<ErrorKind, ContentfulStatusCode> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  gone: 410,
  conflict: 409,
  "too-large": 413,
  "unsupported-type": 415,
  "rate-limited": 429,
  unavailable: 503,
};

/** The HTTP status of a domain error, for the REST API and the other Hono routes (/auth). */
export function statusOf(error: DomainError): ContentfulStatusCode {
  return STATUS[error.kind];
}

export interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

/** The single place where a thrown error becomes an HTTP answer for /api. */
export function apiError(err: unknown, c: Context): Response {
  if (err instanceof DomainError) {
    const body: ErrorBody = { error: { code: err.code, message: err.message } };
    if (err instanceof ValidationError) body.error.fields = err.fields;
    const headers: Record<string, string> = {};
    if (err instanceof RateLimited) headers["Retry-After"] = String(err.retryAfterSeconds);
    return c.json(body, statusOf(err), headers);
  }
  // A route contract's own refusal (a body of an undeclared media type): the same error body.
  if (err instanceof HTTPException && err.status < 500) {
    const code = err.status === 415 ? "unsupported-media-type" : "bad-request";
    return c.json({ error: { code, message: err.message } } satisfies ErrorBody, err.status as ContentfulStatusCode);
  }
  logError("unexpected error", err, { path: new URL(c.req.url).pathname });
  return c.json({ error: { code: "internal", message: "Something went wrong on our side." } } satisfies ErrorBody, 500);
}

export function notFound(c: Context): Response {
  return c.json({ error: { code: "not-found", message: "No such endpoint." } } satisfies ErrorBody, 404);
}
