import type { Context } from "hono";
import { createRoute, z } from "@hono/zod-openapi";
import { readToken } from "#worker/auth/cookie.ts";
import { readBytesUpTo } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { apiError } from "#worker/api/errors.ts";
import { bodyErrors, contractApp, documented, errors, json, rawBody } from "#worker/api/contract.ts";
import { hitInput } from "#worker/services/analytics/model.ts";
import { summaryQuery, summaryResponse } from "#worker/services/analytics/service.ts";
import { queueSyntheticHits } from "#worker/services/analytics/bench.ts";
import { createServices } from "#worker/services/index.ts";
import { tooLarge, ValidationError } from "#worker/services/shared/errors.ts";
import { logError } from "#worker/log.ts";

/** A beacon's body is a path and a referrer: a few hundred bytes. */
const MAX_HIT_BYTES = 4 * 1024;

/** A transparent 1x1 GIF: the no-JavaScript fallback's answer. */
const PIXEL = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (ch) =>
  ch.charCodeAt(0),
);

/**
 * Counts one read through the ingest service (built by the one composition root, worker/services/index.ts).
 * The session token (if any) is resolved there only to leave out a writer's reads of their own posts. The
 * D1-session layer never runs for these routes, so no bookmark cookie can be set: the beacon's answer never
 * carries a Set-Cookie.
 */
async function count(c: Context<ApiEnv>, input: unknown) {
  const services = createServices(c.env, c.executionCtx as ExecutionContext, new URL(c.req.url).origin);
  return services.analyticsIngest.accept(c.req.raw, input, readToken(c.req.raw));
}

const routes = {
  hit: createRoute({
    method: "post",
    path: "/hit",
    summary: "The page-view beacon (JSON {path, referrer}); answers 204 and sets no cookie",
    // sendBeacon posts a string as text/plain: the route reads the bytes itself, whatever the type.
    request: {
      body: {
        ...rawBody("application/json", documented(hitInput), "The page and its referrer, at most 4 KB"),
        content: {
          "application/json": { schema: documented(hitInput) },
          "text/plain": { schema: documented(hitInput) },
        },
      },
    },
    responses: { 204: { description: "Counted (or left out: a bot, a writer's own post)" }, ...bodyErrors },
  }),
  pixel: createRoute({
    method: "get",
    path: "/hit.gif",
    summary: "The no-JavaScript page-view pixel: counts the page in its Referer",
    request: { query: z.object({ r: z.string().optional().openapi({ description: "The page's own referrer" }) }) },
    responses: { 200: { description: "A 1x1 GIF", content: { "image/gif": { schema: z.string() } } } },
  }),
  bench: createRoute({
    method: "post",
    path: "/bench",
    // Not part of the contract: a benchmark's producer, 404 unless ANALYTICS_BENCH_HOOKS is "true".
    hide: true,
    responses: { 200: json(z.object({ queued: z.number() })), ...errors },
  }),
  summary: createRoute({
    method: "get",
    path: "/analytics/summary",
    summary:
      "Visitors and pageviews of a range (the site for admins, a writer's own posts, or one post), with top posts, sources, countries and devices",
    request: { query: summaryQuery },
    responses: { 200: json(summaryResponse), ...errors },
  }),
};

/**
 * The analytics beacon (`POST /api/analytics/hit`, JSON `{path, referrer}`, sent with navigator.sendBeacon
 * after load) and its no-JavaScript fallback (`GET /api/analytics/hit.gif`, an image in <noscript>: the
 * page is its Referer). Mounted by the Hono root before the session and D1-session layers.
 */
export const analyticsHitRoutes = contractApp()
  .openapi(routes.hit, async (c) => {
    try {
      // sendBeacon posts a string as text/plain: the type is not checked, the size and the JSON are.
      const text = new TextDecoder().decode(
        await readBytesUpTo(c.req.raw.body, MAX_HIT_BYTES, () => tooLarge("The hit is too large.")),
      );
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ValidationError(
          { body: "The body is not valid JSON." },
          "The body is not valid JSON.",
          "invalid-json",
        );
      }
      await count(c, body);
      return c.body(null, 204);
    } catch (err) {
      return apiError(err, c);
    }
  })
  .openapi(routes.pixel, async (c) => {
    // The page counted is the one the image is on, and only one of the site's own: its Referer. No
    // query names a page, so another site cannot count reads of a post by embedding the image.
    let path: string | null = null;
    try {
      const page = new URL(c.req.header("Referer") ?? "");
      if (page.host === new URL(c.req.url).host) path = `${page.pathname}${page.search}`;
    } catch {
      path = null;
    }
    // An image answers an image whatever happened: a broken-image icon helps nobody.
    if (path)
      await count(c, { path, referrer: c.req.valid("query").r ?? "" }).catch((err) =>
        logError("analytics: pixel", err),
      );
    return c.body(PIXEL, 200, { "Content-Type": "image/gif" });
  });

/**
 * The benchmark's producer (worker/services/analytics/bench.ts): 404 unless ANALYTICS_BENCH_HOOKS is
 * "true", which production never sets. Mounted beside the beacon but kept out of the OpenAPI document
 * (worker/api/index.ts documents only the routes production serves).
 */
export const analyticsBenchRoutes = contractApp().openapi(routes.bench, async (c) => {
  const body: unknown = await c.req.json().catch(() => null);
  return c.json({ queued: await queueSyntheticHits(c.env, body) }, 200);
});
analyticsBenchRoutes.onError(apiError);

/** Reading the rollups: the summary (scoped: an admin the site, a writer their own posts). */
export const analyticsApi = contractApp().openapi(routes.summary, async (c) =>
  c.json(await c.var.services.analytics.summary(c.var.user, c.req.valid("query")), 200),
);
