import { ConfigError, configOf } from "#worker/config.ts";
import type { Hono } from "hono";
import type { ApiEnv } from "#worker/api/context.ts";
import { withEdgeCache } from "#worker/cache/edge.ts";
import type { Env } from "#worker/env.ts";
import { withSecurityHeaders } from "#worker/security/headers.ts";
import { log } from "#worker/log.ts";

/**
 * Every request's way through the Worker (production, wrangler dev and `npm run dev` alike): a request
 * id, the edge cache, the app, the security headers, and one structured log line per answer.
 */
export async function serve(app: Hono<ApiEnv>, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const started = Date.now();
  const requestId = request.headers.get("CF-Ray") ?? crypto.randomUUID();
  let response: Response;
  try {
    configOf(env);
  } catch (err) {
    // A misconfigured deployment says so at once, naming the variable, instead of failing somewhere later.
    if (!(err instanceof ConfigError)) throw err;
    logRequest("error", request, requestId, started, 500, err);
    return new Response(`This site is not configured yet. ${err.problems.join(" ")}\n`, {
      status: 500,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  try {
    response = await withEdgeCache(onConfiguredOrigin(request, env), env, ctx, async (req) =>
      withSecurityHeaders(req, async (r) => app.fetch(r, env, ctx)),
    );
  } catch (err) {
    logRequest("error", request, requestId, started, 500, err);
    throw err;
  }
  response = new Response(response.body, response);
  response.headers.set("X-Request-Id", requestId);
  logRequest(response.status >= 500 ? "error" : "info", request, requestId, started, response.status);
  return response;
}

function logRequest(
  level: "info" | "error",
  request: Request,
  requestId: string,
  started: number,
  status: number,
  err?: unknown,
) {
  const fields = {
    requestId,
    method: request.method,
    path: new URL(request.url).pathname,
    status,
    ms: Date.now() - started,
  };
  log(level, "request", fields, err);
}

/**
 * The request as if it came to the configured origin (SITE_URL, which production sets): canonical
 * links, feeds, sitemaps and share cards are built from the request's URL, so they always name the
 * site, never whatever Host a request came through, and one cached copy serves every host name.
 * A browser on another host name is then cross-site for writes. Without SITE_URL (local development
 * on any port) the request is left as it is.
 */
export function onConfiguredOrigin(request: Request, env: Env): Request {
  const configured = configOf(env).siteUrl;
  if (!configured) return request;
  const origin = new URL(configured);
  const url = new URL(request.url);
  if (url.origin === origin.origin) return request;
  url.protocol = origin.protocol;
  url.host = origin.host;
  const moved = new Request(url, request);
  moved.headers.set("Host", origin.host);
  return moved;
}
