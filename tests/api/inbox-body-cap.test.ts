import { describe, expect, it } from "vitest";
import { call } from "../support/http";

/** A body that arrives in chunks with no Content-Length: only counting the bytes as they come can refuse it. */
function chunked(total: number) {
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled * chunk.byteLength >= total) return controller.close();
      controller.enqueue(chunk);
      counter.pulled++;
    },
  });
  return { stream, counter };
}

describe("the fediverse inbox reads its body under a cap", () => {
  it("refuses a chunked body past 256 KB with 413, having read little more than the cap", async () => {
    const { stream, counter } = chunked(4 * 1024 * 1024);
    const res = await call("/ap/inbox", {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
      body: stream,
      // @ts-expect-error: workerd needs the duplex flag for a streamed request body
      duplex: "half",
    });
    expect(res.status).toBe(413);
    // 4 MiB is 64 chunks; reading up to the cap takes 5, and a few more may be in flight.
    expect(counter.pulled).toBeLessThan(20);
  });
});
