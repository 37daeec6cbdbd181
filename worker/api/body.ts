import type { Context } from "hono";
import { readBytesUpTo } from "#worker/http/bytes.ts";
import { tooLarge, unsupportedType, ValidationError } from "#worker/services/shared/errors.ts";

/** The one capped body reader (worker/http/bytes.ts): request bodies here, outbound answers in worker/security/outbound.ts. */
export { readBytesUpTo };

export const MAX_JSON_BYTES = 256 * 1024;

/**
 * The JSON body of a request, or a typed error: 415 for another content type, 413 past the
 * limit, 400 for text that is not a JSON object. Services validate the fields themselves.
 */
export async function readJson(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw unsupportedType("Send the body as application/json.");
  const declared = Number(c.req.header("Content-Length") ?? "0");
  if (declared > MAX_JSON_BYTES) throw tooLarge("The request body is too large.");
  const text = new TextDecoder().decode(await readBytesUpTo(c.req.raw.body, MAX_JSON_BYTES));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError({ body: "The body is not valid JSON." }, "The body is not valid JSON.", "invalid-json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValidationError(
      { body: "The body must be a JSON object." },
      "The body must be a JSON object.",
      "invalid-json",
    );
  }
  return value as Record<string, unknown>;
}
