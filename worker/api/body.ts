import type { Context } from "hono";
import { tooLarge, unsupportedType, ValidationError } from "#worker/services/shared/errors.ts";

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

/**
 * The one body reader of the Hono adapter: the body's bytes, refused with `refusal` (a 413) as soon as
 * more than `max` bytes have arrived, so a lying or absent Content-Length (a chunked body) is never
 * buffered past the limit. JSON bodies and image uploads both read through it.
 */
export async function readBytesUpTo(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  refusal: () => Error = () => tooLarge("The request body is too large."),
): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw refusal();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
