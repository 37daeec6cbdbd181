/**
 * Typed domain errors. Services throw them; each adapter maps them once (worker/api/errors.ts for the
 * REST API, app/lib/forms.server.ts for pages). The domain knows no HTTP: an error carries a stable
 * `code` (what clients and the UI switch on) and its `kind`, the family the adapters turn into a status.
 */
export type FieldErrors = Record<string, string>;

/** The families of refusal. Each adapter keeps one exhaustive table from kind to its own answer. */
export type ErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not-found"
  | "gone"
  | "conflict"
  | "too-large"
  | "unsupported-type"
  | "rate-limited"
  | "unavailable";

export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly kind: ErrorKind = "invalid",
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(
    readonly fields: FieldErrors,
    message = "Some fields are not valid.",
    code = "validation-failed",
  ) {
    super(code, message, "invalid");
  }
}

export class Unauthorized extends DomainError {
  constructor(message = "You need to sign in first.", code = "unauthorized") {
    super(code, message, "unauthenticated");
  }
}

export class Forbidden extends DomainError {
  constructor(message = "You are not allowed to do that.", code = "forbidden") {
    super(code, message, "forbidden");
  }
}

export class NotFound extends DomainError {
  constructor(message = "Not found.", code = "not-found") {
    super(code, message, "not-found");
  }
}

/** It was here and was deleted for good (a deleted writer's fediverse actor): 410, so servers forget it. */
export class Gone extends DomainError {
  constructor(message = "This was deleted.", code = "gone") {
    super(code, message, "gone");
  }
}

/** `fields` names the field the conflict is about (a taken email), so a form can show it there. */
export class Conflict extends DomainError {
  constructor(
    message = "That already exists.",
    code = "conflict",
    readonly fields: FieldErrors = {},
  ) {
    super(code, message, "conflict");
  }
}

/** Something sent is larger than its limit (an image, a body): code "payload-too-large". */
export const tooLarge = (message = "That is too large.", code = "payload-too-large") =>
  new DomainError(code, message, "too-large");

/** Something sent is of a type that is not accepted: code "unsupported-media-type". */
export const unsupportedType = (message = "That type of content is not supported.", code = "unsupported-media-type") =>
  new DomainError(code, message, "unsupported-type");

export class RateLimited extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message = "Too many attempts. Please wait a moment and try again.",
  ) {
    super("rate-limited", message, "rate-limited");
  }
}

export class Unavailable extends DomainError {
  constructor(message = "The service is unavailable.", code = "unavailable") {
    super(code, message, "unavailable");
  }
}

/** What a person is told when D1 does not answer (the API's 503 and the sign-out error say it alike). */
export const DATABASE_UNAVAILABLE_TEXT = "The database is not answering. Please try again shortly.";
