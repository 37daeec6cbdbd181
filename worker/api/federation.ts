import { Hono, type Context, type Next } from "hono";
import type { ApiEnv } from "#worker/api/context.ts";
import { apiError } from "#worker/api/errors.ts";
import { ACTIVITY_JSON, SITE_ACTOR, wantsActivityJson } from "#worker/services/federation/vocab.ts";
import { ACCEPT_SIGNATURE } from "#worker/services/federation/rfc9421.ts";
import { NotFound } from "#worker/services/shared/errors.ts";

/** The version NodeInfo reports. */
const SOFTWARE_VERSION = "0.1.0";

const activity = (c: Context<ApiEnv>, body: unknown, status: 200 | 202 = 200) =>
  c.body(JSON.stringify(body), status, {
    "Content-Type": `${ACTIVITY_JSON}; charset=utf-8`,
    "Access-Control-Allow-Origin": "*",
    Vary: "Accept",
  });

/** A page's ActivityStreams twin: answered here when the request asks for it, else the page (Remix). */
const negotiated =
  (load: (c: Context<ApiEnv>) => Promise<unknown>) =>
  async (c: Context<ApiEnv>, next: Next): Promise<Response | void> => {
    if (!wantsActivityJson(c.req.raw)) return next();
    return activity(c, await load(c));
  };

/** One delivery; a refused signature's 401 says what we accept (RFC 9421 Accept-Signature), so the sender can knock again. */
async function receive(c: Context<ApiEnv>): Promise<Response> {
  try {
    return activity(c, { result: await c.var.services.federation.inbox.receive(c.req.raw) }, 202);
  } catch (err) {
    const response = apiError(err, c);
    if (response.status === 401) response.headers.set("Accept-Signature", ACCEPT_SIGNATURE);
    return response;
  }
}

/**
 * ActivityPub and its discovery (docs/decisions/032): WebFinger, NodeInfo, the actors (the
 * site and each writer) with their inboxes, outboxes and collections, and the posts as Articles.
 * Mounted at the root by worker/app.ts, before sessions: none of it knows who is signed in.
 */
export const federationRoutes = new Hono<ApiEnv>()
  .get("/.well-known/webfinger", async (c) => {
    const resource = c.req.query("resource");
    if (!resource) return c.json({ error: { code: "bad-request", message: "resource is required." } }, 400);
    const jrd = await c.var.services.federation.webfinger(resource);
    if (!jrd) throw new NotFound("No such account here.");
    return c.body(JSON.stringify(jrd), 200, {
      "Content-Type": "application/jrd+json; charset=utf-8",
      "Access-Control-Allow-Origin": "*",
    });
  })
  .get("/.well-known/nodeinfo", (c) =>
    c.json({
      links: [
        {
          rel: "http://nodeinfo.diaspora.software/ns/schema/2.1",
          href: `${c.var.services.federation.origin}/nodeinfo/2.1`,
        },
      ],
    }),
  )
  .get("/nodeinfo/2.1", async (c) =>
    c.body(JSON.stringify(await c.var.services.federation.nodeinfo(SOFTWARE_VERSION)), 200, {
      "Content-Type": 'application/json; profile="http://nodeinfo.diaspora.software/ns/schema/2.1#"',
      "Access-Control-Allow-Origin": "*",
    }),
  )
  .get("/ap/site", async (c) => activity(c, await c.var.services.federation.actorDocument(SITE_ACTOR)))
  .get("/ap/users/:id", async (c) => activity(c, await c.var.services.federation.actorDocument(c.req.param("id"))))
  .get("/ap/site/outbox", async (c) =>
    activity(c, await c.var.services.federation.outbox(SITE_ACTOR, { page: c.req.query("page") })),
  )
  .get("/ap/users/:id/outbox", async (c) =>
    activity(c, await c.var.services.federation.outbox(c.req.param("id"), { page: c.req.query("page") })),
  )
  .get("/ap/site/followers", async (c) =>
    activity(c, await c.var.services.federation.followers(SITE_ACTOR, { page: c.req.query("page") })),
  )
  .get("/ap/users/:id/followers", async (c) =>
    activity(c, await c.var.services.federation.followers(c.req.param("id"), { page: c.req.query("page") })),
  )
  .get("/ap/site/following", async (c) => activity(c, await c.var.services.federation.following(SITE_ACTOR)))
  .get("/ap/users/:id/following", async (c) =>
    activity(c, await c.var.services.federation.following(c.req.param("id"))),
  )
  .get("/ap/avatars", async (c) => {
    // One URL per avatar: any other spelling (extra parameters, another encoding) is sent to it, so a
    // cache in front keys it once and a made-up query string never forces another fetch of the image.
    const url = new URL(c.req.url);
    const actor = url.searchParams.get("actor") ?? "";
    const canonical = `/ap/avatars?actor=${encodeURIComponent(actor)}`;
    if (`${url.pathname}${url.search}` !== canonical) return c.redirect(canonical, 301);
    const image = await c.var.services.federation.avatar(actor, c.req.header("CF-Connecting-IP") ?? null);
    return c.body(image.bytes.buffer as ArrayBuffer, 200, {
      "Content-Type": image.type,
      "Cache-Control": "public, max-age=86400",
      "Content-Security-Policy": "default-src 'none'",
      "X-Content-Type-Options": "nosniff",
    });
  })
  .get("/ap/posts/:id", async (c) => activity(c, await c.var.services.federation.article(c.req.param("id"))))
  .get("/ap/notes/:id", async (c) => activity(c, await c.var.services.federation.timeline.note(c.req.param("id"))))
  // Every inbox (the shared one, the site's, each writer's) takes the same deliveries: the activity names its object.
  .post("/ap/inbox", receive)
  .post("/ap/site/inbox", receive)
  .post("/ap/users/:id/inbox", receive)
  // Content negotiation: an actor's or a post's page, asked for as ActivityStreams, answers the document.
  .get(
    "/writers/:id",
    negotiated((c) => c.var.services.federation.actorDocument(c.req.param("id") ?? "")),
  )
  .get(
    "/about",
    negotiated((c) => c.var.services.federation.actorDocument(SITE_ACTOR)),
  )
  .get(
    "/blogs/:id",
    negotiated((c) => c.var.services.federation.article(c.req.param("id") ?? "")),
  )
  .get(
    "/blogs/:id/:slug",
    negotiated((c) => c.var.services.federation.article(c.req.param("id") ?? "")),
  );

federationRoutes.onError(apiError);
