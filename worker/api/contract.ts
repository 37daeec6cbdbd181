import { OpenAPIHono, z, type Hook } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { ID_PATTERN, isIdShaped } from "#worker/services/shared/ids.ts";
import { NotFound } from "#worker/services/shared/errors.ts";
import { invalidInput } from "#worker/services/shared/validation.ts";

/**
 * The pieces every /api route is declared with (docs/decisions/058-routes-declared-as-contracts.md): each
 * route is a `createRoute` whose params, query, body and answers are zod schemas, so the OpenAPI document
 * and the typed client come from the declarations the requests are checked against.
 */

/** The one error body of the API (worker/api/errors.ts writes it). */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
    }),
  })
  .openapi("Error");

const REFUSALS = {
  400: "Invalid input: `fields` names each problem",
  401: "Signed out: this needs a session",
  403: "Not allowed for this account",
  404: "No such record (or not visible to this account)",
  409: "Conflicts with what is stored",
  410: "Deleted for good",
  413: "The body is larger than its limit",
  415: "The body is not of the type this route reads",
  429: "Too many attempts: wait Retry-After seconds",
  503: "The database is not answering: try again shortly",
} as const;
type Refusal = keyof typeof REFUSALS;
type Refused<S extends Refusal> = {
  [K in S]: { description: string; content: { "application/json": { schema: typeof ErrorBody } } };
};

/** The error answers a route may give, each with the shared error schema. */
export function refusals<S extends Refusal>(...statuses: S[]): Refused<S> {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: REFUSALS[s], content: { "application/json": { schema: ErrorBody } } }]),
  ) as unknown as Refused<S>;
}

/** What any route may answer whatever it does: refused input, a missing record, limits, an outage. */
const ALWAYS = [400, 401, 403, 404, 409, 429, 503] as const satisfies Refusal[];
/** ...and a route that reads a body: too large, or of another type. */
const WITH_BODY = [...ALWAYS, 413, 415] as const satisfies Refusal[];
export const errors = refusals(...ALWAYS);
export const bodyErrors = refusals(...WITH_BODY);

/** A JSON answer with its schema. */
export const json = <S extends z.ZodType>(schema: S, description = "Success") => ({
  description,
  content: { "application/json": { schema } },
});

/** A service's input schema as the document's JSON Schema (zod 4's own converter, the shape a client sends). */
export function documented(schema: z.ZodType): Record<string, unknown> {
  try {
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
    return json;
  } catch {
    return { type: "object" };
  }
}

/**
 * A JSON request body: the document and the typed client carry the very schema the service parses it with,
 * while the route checks it is a JSON object and hands it on. The service parses it in its own context (a
 * draft's looser schema, the caller's rights before the fields), so a refusal reads as it always has.
 */
export function jsonBody<S extends z.ZodType>(schema: S, description = "JSON body", required = true) {
  const body = z.looseObject({}).openapi(documented(schema)) as unknown as z.ZodType<z.input<S>, z.input<S>>;
  return { description, required, content: { "application/json": { schema: body } } };
}

/**
 * A body the route reads itself, as bytes (an upload, a CSV, a signed webhook): described here by a plain
 * JSON Schema, not a zod one, so no validator reads it before the route's own capped reader does.
 */
export const rawBody = (type: string, schema: Record<string, unknown>, description: string) => ({
  description,
  required: true,
  content: { [type]: { schema } },
});

/** A multipart form with one file field (and other text fields). */
export const fileForm = (field: string, others: Record<string, Record<string, unknown>> = {}) => ({
  type: "object",
  required: [field],
  properties: { [field]: { type: "string", contentMediaType: "application/octet-stream" }, ...others },
});

/**
 * Reads the JSON body the way the API always has (415 for another type, 413 past the cap, 400 for text
 * that is not a JSON object), then leaves it where the route's zod validator reads it. A route whose body
 * may be left out (`optional`) reads one only when a Content-Type is sent, as before.
 */
export const readsJson =
  (optional = false): MiddlewareHandler<ApiEnv> =>
  async (c, next) => {
    if (optional && !c.req.header("Content-Type")) {
      c.req.addValidatedData("json", {});
      return next();
    }
    const value = await readJson(c);
    c.req.bodyCache.json = Promise.resolve(value);
    await next();
  };

/** An id of ours in a route's path; any other text cannot name a record (404, as the services answer). */
export const IdParam = z.string().refine(isIdShaped).openapi({ pattern: ID_PATTERN, example: "k3v9q2x8m1c7p4z0w6ab" });

/** A path segment a service looks up as it is (an email, a handle, a key). */
export const TextParam = z.string();

/** `{id}` in a path. */
export const IdParams = z.object({ id: IdParam });

/** A list: a JSON array of records, the total in X-Total-Count and the pages in Link (worker/api/paging.ts). */
export const Page = {
  description: "A page of records (X-Total-Count and Link headers)",
  content: { "application/json": { schema: z.array(z.looseObject({})) } },
};

/** The paging parameters of a list (services check them: decision 023). */
export const PagingQuery = z.object({
  page: z.string().optional().openapi({ description: "1-based page number" }),
  limit: z.string().optional().openapi({ description: "Items per page (capped)" }),
  cursor: z.string().optional().openapi({ description: "Keyset cursor from a previous page's Link rel=next" }),
});

/** Zod failures of a request answer what the services' own parse answers: 400 with field messages. */
export const defaultHook: Hook<unknown, ApiEnv, string, unknown> = (result) => {
  if (result.success) return;
  // A path id that is not shaped like ours names nothing: the same 404 the services give it.
  if (result.target === "param") throw new NotFound();
  // zod-validator hands the hook the input it checked as `data`, beside the failure.
  throw invalidInput(result.error.issues, (result as { data?: unknown }).data);
};

/** One resource's routes, declared as contracts. */
export const contractApp = () => new OpenAPIHono<ApiEnv>({ defaultHook });

/** Common answers. */
export const Inserted = z.object({ insertedId: z.string() }).loose();
export const Modified = z.object({ modifiedCount: z.number() }).loose();
export const Deleted = z.object({ deletedCount: z.number() }).loose();
/** A record as the API writes it: `_id` and its fields (described by the service's types). */
export const Record_ = z.looseObject({});
export const Success = z.object({ success: z.boolean() }).loose();
