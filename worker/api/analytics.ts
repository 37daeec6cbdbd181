import { Hono, type Context } from "hono";
import { readToken } from "#worker/auth/cookie.ts";
import { readBytesUpTo } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { apiError } from "#worker/api/errors.ts";
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

/**
 * The analytics beacon (`POST /api/analytics/hit`, JSON `{path, referrer}`, sent with navigator.sendBeacon
 * after load) and its no-JavaScript fallback (`GET /api/analytics/hit.gif`, an image in <noscript>: the
 * page is its Referer). Mounted by the Hono root before the session and D1-session layers.
 */
export const analyticsHitRoutes = new Hono<ApiEnv>()
  .post("/hit", async (c) => {
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
  .get("/hit.gif", async (c) => {
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
      await count(c, { path, referrer: c.req.query("r") ?? "" }).catch((err) => logError("analytics: pixel", err));
    return c.body(PIXEL, 200, { "Content-Type": "image/gif" });
  });

/**
 * The benchmark's producer (worker/services/analytics/bench.ts): 404 unless ANALYTICS_BENCH_HOOKS is
 * "true", which production never sets. Mounted beside the beacon but kept out of the OpenAPI document
 * (worker/api/index.ts documents only the routes production serves).
 */
export const analyticsBenchRoutes = new Hono<ApiEnv>().post("/bench", async (c) => {
  try {
    const body: unknown = await c.req.json().catch(() => null);
    return c.json({ queued: await queueSyntheticHits(c.env, body) });
  } catch (err) {
    return apiError(err, c);
  }
});

/** Reading the rollups: the summary (scoped: an admin the site, a writer their own posts). */
export const analyticsApi = new Hono<ApiEnv>().get("/analytics/summary", async (c) =>
  c.json(
    await c.var.services.analytics.summary(c.var.user, {
      from: c.req.query("from"),
      to: c.req.query("to"),
      post: c.req.query("post"),
    }),
  ),
);
