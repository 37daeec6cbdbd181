import { exports } from "cloudflare:workers";

/** Sends a request through the real Worker entry (Hono root, /api, Remix). */
export function call(path: string, init?: RequestInit): Promise<Response> {
  const request = new Request(new URL(path, "https://blog.test"), init);
  // Cloudflare always sends the client's address; requests without one are one shared client for the
  // limits. Each call here is its own client unless the test names one (an empty value: no address).
  if (!request.headers.has("CF-Connecting-IP")) request.headers.set("CF-Connecting-IP", testAddress());
  return (exports as unknown as { default: Fetcher }).default.fetch(request);
}

let addresses = 0;
/** A fresh documentation address (198.18.0.0/15, for benchmarks) per call. */
function testAddress(): string {
  addresses++;
  return `198.${18 + ((addresses >> 16) & 1)}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/** Sends a JSON body (any value, or raw text for malformed-body tests) with optional auth headers. */
export function send(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return call(path, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A body as the test expects it: of a Response, or of the typed client's (tests/support/client.ts). */
export async function json<T = unknown>(res: { json(): Promise<unknown> }): Promise<T> {
  return (await res.json()) as T;
}

/**
 * The path's answer once the edge cache serves it (X-Cache: HIT): the first answers fill the cache in
 * the background (waitUntil), so it asks again a few times before giving up.
 */
export async function untilHit(path: string, init?: RequestInit): Promise<Response> {
  for (let i = 0; i < 40; i++) {
    const res = await call(path, init);
    if (res.headers.get("X-Cache") === "HIT") return res;
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${path} never became a HIT`);
}
