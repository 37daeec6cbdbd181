import { hc } from "hono/client";
import type { Api } from "#worker/api/index.ts";
import { call } from "./http";
import { callWith } from "./mail";

type Send = (path: string, init?: RequestInit) => Promise<Response>;

const typed = (headers: Record<string, string>, send: Send) =>
  hc<Api>("https://blog.test/api", {
    headers,
    fetch: (input: RequestInfo | URL, init?: RequestInit) =>
      send(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, init),
  });

/**
 * The REST API through Hono's typed client over the app's own type (worker/api/index.ts): a path, a
 * parameter or a body that a route no longer declares fails to type-check here. Requests still go
 * through the real Worker entry (tests/support/http.ts `call`), signed in when given a session's headers.
 */
export function client(headers: Record<string, string> = {}) {
  return typed(headers, call);
}

/** The same, through the Worker with its own bindings (tests/support/mail.ts `callWith`: a mailbox, queues, Stripe). */
export function clientWith(env: Cloudflare.Env, headers: Record<string, string> = {}) {
  return typed(headers, (path, init) => callWith(env, path, init));
}
