/** Typed domain errors. Services throw them; each adapter maps them once. */
export type FieldErrors = Record<string, string>;

export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
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
    super(code, message);
  }
}

export class Unauthorized extends DomainError {
  constructor(message = "You need to sign in first.", code = "unauthorized") {
    super(code, message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = "You are not allowed to do that.", code = "forbidden") {
    super(code, message);
  }
}

export class NotFound extends DomainError {
  constructor(message = "Not found.", code = "not-found") {
    super(code, message);
  }
}

export class Conflict extends DomainError {
  constructor(message = "That already exists.", code = "conflict") {
    super(code, message);
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(message = "That is too large.", code = "payload-too-large") {
    super(code, message);
  }
}

export class UnsupportedMediaType extends DomainError {
  constructor(message = "That type of content is not supported.", code = "unsupported-media-type") {
    super(code, message);
  }
}

export class RateLimited extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message = "Too many attempts. Please wait a moment and try again.",
  ) {
    super("rate-limited", message);
  }
}

export class Unavailable extends DomainError {
  constructor(message = "The service is unavailable.", code = "unavailable") {
    super(code, message);
  }
}

/** What a person is told when D1 does not answer (the API's 503 and the sign-out error say it alike). */
export const DATABASE_UNAVAILABLE_TEXT = "The database is not answering. Please try again shortly.";

/** HTTP status for each domain error; the one table both adapters read. */
export function statusOf(error: DomainError): 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503 {
  if (error instanceof ValidationError) return 400;
  if (error instanceof Unauthorized) return 401;
  if (error instanceof Forbidden) return 403;
  if (error instanceof NotFound) return 404;
  if (error instanceof Conflict) return 409;
  if (error instanceof PayloadTooLarge) return 413;
  if (error instanceof UnsupportedMediaType) return 415;
  if (error instanceof RateLimited) return 429;
  if (error instanceof Unavailable) return 503;
  return 400;
}
