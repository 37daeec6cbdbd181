import { configOf } from "#worker/config.ts";
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { Hono, type Context } from "hono";
import { api } from "#worker/api/index.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { analyticsBenchRoutes, analyticsHitRoutes } from "#worker/api/analytics.ts";
import { apiError, notFound } from "#worker/api/errors.ts";
import { federationRoutes } from "#worker/api/federation.ts";
import { wantsJson } from "#worker/http/negotiation.ts";
import { openDatabaseSession } from "#worker/db-session.ts";
import { crossSiteRefusal, errorPage, isCrossSiteWrite } from "#worker/security/csrf.ts";
import { createServices, type Services } from "#worker/services/index.ts";
import { createDb } from "#worker/db.ts";
import { rememberOrigin } from "#worker/services/mail/origin.ts";
import type { Env } from "#worker/env.ts";
import {
  clientOf,
  expiredCookieHeader,
  LEGACY_SESSION_COOKIE,
  readCookie,
  readToken,
  sealFlash,
} from "#worker/auth/cookie.ts";
import { authRoutes } from "#worker/auth/routes.ts";
import { nonceOf } from "#worker/security/headers.ts";
import { DATABASE_UNAVAILABLE_TEXT, DomainError } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import type { Client } from "#worker/services/accounts/model.ts";

/** What every Remix loader and action receives as `context`. */
export type LoadContext = {
  env: Env;
  ctx: ExecutionContext;
  services: Services;
  /** The signed-in user (null for visitors); loaders and actions still check for themselves. */
  user: Actor | null;
  sessionId: string | null;
  /** The requester as the sign-in limits see it (address key, known device, origin): read once per request. */
  client: () => Promise<Client>;
  /** This render's CSP nonce (worker/security/headers.ts): the framework's own inline scripts carry it. */
  cspNonce?: string;
};

declare module "@remix-run/cloudflare" {
  // Declaration merging needs an interface; it adds LoadContext's members to Remix's own.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merging, not an empty type
  interface AppLoadContext extends LoadContext {}
}

/**
 * The Hono root: /api (JSON), /images (R2), then everything else to Remix.
 * `build` is the Remix server build: the compiled one in production, Vite's virtual module in dev.
 */
export function createApp(build: ServerBuild | (() => Promise<ServerBuild>), mode = "production") {
  const handleRemix = createRequestHandler(build as ServerBuild, mode);
  const app = new Hono<ApiEnv>();

  // Cross-site writes are refused before anything else runs.
  app.use("*", async (c, next) => {
    if (isCrossSiteWrite(c.req.raw)) return crossSiteRefusal(c.req.raw);
    await next();
  });

  // The analytics beacon: before the D1-session and session layers, so its answer never sets a cookie.
  app.route("/api/analytics", analyticsHitRoutes);
  app.route("/api/analytics", analyticsBenchRoutes);

  app.use("*", async (c, next) => {
    const database = openDatabaseSession(c.env, c.req.raw);
    c.set(
      "services",
      createServices({ ...c.env, DB: database.db }, c.executionCtx as ExecutionContext, new URL(c.req.url).origin),
    );
    // The requester as the sign-in limits see it, read once and only when a route asks (a signed cookie).
    let client: Promise<Client> | undefined;
    c.set("client", () => (client ??= clientOf(c.req.raw, configOf(c.env).sessionSecret)));
    await next();
    // A write's origin is where background mail links to when SITE_URL is unset (worker/services/mail/origin.ts).
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.res.status < 400)
      c.executionCtx.waitUntil(rememberOrigin(createDb(database.db), c.env, new URL(c.req.url).origin));
    // D1 failing is an outage, not a bug of ours: 503 with Retry-After, on pages and /api alike.
    if (database.failed() && c.res.status >= 500) c.res = unavailable(c.req.raw);
    const bookmark = database.bookmarkCookie(c.res);
    if (bookmark) {
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append("Set-Cookie", bookmark);
    }
  });

  const serveImage = async (
    c: Context<ApiEnv>,
    key: string,
    load: () => Promise<{ object: R2ObjectBody; expiresAt: number | null }>,
  ) => {
    try {
      const { object, expiresAt } = await load();
      const headers = new Headers();
      object.writeHttpMetadata(headers);
      headers.set("ETag", object.httpEtag);
      // One tag per original (its widths too): deleting it purges every cached copy (tags.ts image.removed).
      headers.set("Cache-Tag", `image:${key}`);
      // Keys are never reused, so a lasting image is immutable; an expiring one is cached no longer than it lives.
      const maxAge = expiresAt === null ? null : Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
      headers.set(
        "Cache-Control",
        maxAge === null ? "public, max-age=31536000, immutable" : `public, max-age=${maxAge}`,
      );
      if (c.req.header("If-None-Match") === object.httpEtag) {
        await object.body.cancel();
        return new Response(null, { status: 304, headers });
      }
      return new Response(object.body, { headers });
    } catch (err) {
      if (err instanceof DomainError) return apiError(err, c);
      throw err;
    }
  };

  app.get("/images/:key", (c) =>
    serveImage(c, c.req.param("key"), () => c.var.services.images.read(c.req.param("key"))),
  );
  // A width variant (WebP) of a stored image, made on first request: /images/w640/<key>.
  app.get("/images/:width{w[0-9]{3,4}}/:key", (c) =>
    serveImage(c, c.req.param("key"), () =>
      c.var.services.images.readVariant(c.req.param("key"), Number(c.req.param("width").slice(1))),
    ),
  );

  // ActivityPub, WebFinger, NodeInfo: public documents and signed deliveries, no session.
  app.route("/", federationRoutes);

  // Everything below knows who is asking. Images are public and registered above, so serving one
  // never costs a session look-up.
  app.use("*", async (c, next) => {
    const session = await c.var.services.sessions.resolve(readToken(c.req.raw));
    c.set("user", session?.actor ?? null);
    c.set("sessionId", session?.sessionId ?? null);
    await next();
    // The session cookie before `__Host-` is never read, but it would keep the browser out of the shared
    // cache for its remaining days: let it go.
    if (readCookie(c.req.raw, LEGACY_SESSION_COOKIE) !== null) {
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append("Set-Cookie", expiredCookieHeader(LEGACY_SESSION_COOKIE));
    }
  });

  app.route("/api", api);
  // A mounted sub-app's notFound is not consulted by the root: unknown /api paths stop here as JSON.
  app.all("/api/*", notFound);

  app.route("/auth", authRoutes);

  app.all("*", async (c) => {
    const context: LoadContext = {
      env: c.env,
      ctx: c.executionCtx as ExecutionContext,
      services: c.var.services,
      user: c.var.user,
      sessionId: c.var.sessionId,
      client: c.var.client,
      cspNonce: nonceOf(c.req.raw),
    };
    // Remix compares an action's Origin with Host; a request without one (not a browser's) gets it from its URL.
    const request = c.req.raw.headers.has("Host") ? c.req.raw : withHost(c.req.raw);
    return sealFlash(await handleRemix(request, context), configOf(c.env).sessionSecret);
  });

  return app;
}

const RETRY_AFTER_SECONDS = "30";

function unavailable(request: Request): Response {
  // The API, and a page's script that asked for JSON (the menu's Sign Out), get the sentence as JSON.
  if (wantsJson(request)) {
    return Response.json(
      { error: { code: "database-unavailable", message: DATABASE_UNAVAILABLE_TEXT } },
      { status: 503, headers: { "Retry-After": RETRY_AFTER_SECONDS } },
    );
  }
  return new Response(
    errorPage(503, "We'll be right back", "The site cannot reach its database just now. Please try again in a moment."),
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": RETRY_AFTER_SECONDS } },
  );
}

function withHost(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set("Host", new URL(request.url).host);
  return new Request(request, { headers });
}
