import { exports } from "cloudflare:workers";

/** Sends a request through the real Worker entry (Hono root, /api, Remix). */
export function call(path: string, init?: RequestInit): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(new URL(path, "https://blog.test"), init));
}

export async function json<T = unknown>(res: Response): Promise<T> {
  return (await res.json()) as T;
}
