import { tooLarge } from "#worker/services/shared/errors.ts";

/**
 * The one capped body reader: the body's bytes, refused with `refusal` as soon as more than `max` bytes
 * have arrived, so a lying or absent Content-Length (a chunked body) is never buffered past the limit.
 * Request bodies (JSON, image uploads: a 413) and outbound answers (worker/security/outbound.ts) read
 * through it.
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
