import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { logError } from "#worker/log.ts";

const enc = new TextEncoder();

/**
 * A zip written as a stream: each file is pushed as it is produced and the writer waits for the reader
 * (backpressure), so memory stays flat whatever the archive holds. `produce` adds the files; a failure
 * aborts the stream, so the download fails rather than ending as a zip that looks complete.
 */
export function zipStream(produce: (zip: ZipWriter) => Promise<void>, label: string): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      void writer.abort(err).catch(() => undefined);
      return;
    }
    void writer.write(chunk).catch(() => undefined);
    if (final) void writer.close().catch(() => undefined);
  });
  const api: ZipWriter = {
    async text(name, text) {
      const file = new ZipDeflate(name, { level: 6 });
      zip.add(file);
      file.push(enc.encode(text), true);
      await writer.ready;
    },
    async json(name, source) {
      const file = new ZipDeflate(name, { level: 6 });
      zip.add(file);
      file.push(enc.encode("["));
      let first = true;
      for await (const rows of source) {
        for (const row of rows) {
          file.push(enc.encode(`${first ? "" : ","}\n  ${JSON.stringify(row)}`));
          first = false;
        }
        await writer.ready;
      }
      file.push(enc.encode(first ? "]\n" : "\n]\n"), true);
      await writer.ready;
    },
    async stream(name, body) {
      const file = new ZipPassThrough(name);
      zip.add(file);
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        file.push(value);
        await writer.ready;
      }
      file.push(new Uint8Array(0), true);
      await writer.ready;
    },
  };
  void produce(api)
    .then(() => zip.end())
    .catch(async (err: unknown) => {
      logError(`${label} failed`, err);
      await writer.abort(err).catch(() => undefined);
    });
  return readable;
}

export interface ZipWriter {
  /** A text file, deflated. */
  text(name: string, text: string): Promise<void>;
  /** A JSON array written page by page, so a long list is never held whole. */
  json(name: string, source: AsyncIterable<unknown[]>): Promise<void>;
  /** A file copied chunk by chunk (images: stored, not deflated again). */
  stream(name: string, body: ReadableStream<Uint8Array>): Promise<void>;
}
