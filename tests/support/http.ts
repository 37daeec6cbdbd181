import { exports } from "cloudflare:workers";

/** Sends a request through the real Worker entry (Hono root, /api, Remix). */
export function call(path: string, init?: RequestInit): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(new URL(path, "https://blog.test"), init),
  );
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

export async function json<T = unknown>(res: Response): Promise<T> {
  return (await res.json()) as T;
}
