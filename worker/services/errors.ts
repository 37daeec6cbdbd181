/** Typed domain errors. Services throw them; each adapter maps them once. */
export type FieldErrors = Record<string, string>;

// The Remix server build bundles its own copy of this module, while the services it calls run from
// the Worker's copy: `instanceof` must recognise an error made by either copy. So errors carry their
// kinds under a registered symbol and classes match on that, not on identity (nor on class names,
// which minification renames).
const KINDS = Symbol.for("edge-blog.domain-error-kinds");

export class DomainError extends Error {
  static readonly kind: string = "DomainError";
  readonly [KINDS]: string[];

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
    const kinds: string[] = [];
    for (
      let c: unknown = new.target;
      typeof c === "function" && Object.hasOwn(c, "kind");
      c = Object.getPrototypeOf(c)
    ) {
      kinds.push((c as typeof DomainError).kind);
    }
    this[KINDS] = kinds;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    const kinds = typeof value === "object" && value !== null ? (value as { [KINDS]?: unknown })[KINDS] : undefined;
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

export class ValidationError extends DomainError {
  static override readonly kind = "ValidationError";
  constructor(
    readonly fields: FieldErrors,
    message = "Some fields are not valid.",
    code = "validation-failed",
  ) {
    super(code, message);
  }
}

export class Unauthorized extends DomainError {
  static override readonly kind = "Unauthorized";
  constructor(message = "You need to sign in first.", code = "unauthorized") {
    super(code, message);
  }
}

export class Forbidden extends DomainError {
  static override readonly kind = "Forbidden";
  constructor(message = "You are not allowed to do that.", code = "forbidden") {
    super(code, message);
  }
}

export class NotFound extends DomainError {
  static override readonly kind = "NotFound";
  constructor(message = "Not found.", code = "not-found") {
    super(code, message);
  }
}

export class Conflict extends DomainError {
  static override readonly kind = "Conflict";
  constructor(message = "That already exists.", code = "conflict") {
    super(code, message);
  }
}

export class PayloadTooLarge extends DomainError {
  static override readonly kind = "PayloadTooLarge";
  constructor(message = "That is too large.", code = "payload-too-large") {
    super(code, message);
  }
}

export class UnsupportedMediaType extends DomainError {
  static override readonly kind = "UnsupportedMediaType";
  constructor(message = "That type of content is not supported.", code = "unsupported-media-type") {
    super(code, message);
  }
}

export class RateLimited extends DomainError {
  static override readonly kind = "RateLimited";
  constructor(
    readonly retryAfterSeconds: number,
    message = "Too many attempts. Please wait a moment and try again.",
  ) {
    super("rate-limited", message);
  }
}

export class Unavailable extends DomainError {
  static override readonly kind = "Unavailable";
  constructor(message = "The service is unavailable.", code = "unavailable") {
    super(code, message);
  }
}

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
