import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { sendPage } from "#worker/api/paging.ts";
import { requireUser } from "#worker/services/shared/policy.ts";

/**
 * The fediverse settings: an admin's blocks, a writer's handle; and an account's remote
 * follows, the posts they send, and replies to them (the fediverse in miniature). Personal: no-store.
 */
export const federationApi = new Hono<ApiEnv>()
  .get("/federation/blocks", async (c) =>
    c.json({ blocks: await c.var.services.federation.blocks(c.var.user, { page: c.req.query("page") }) }),
  )
  .post("/federation/blocks", async (c) =>
    c.json(await c.var.services.federation.block(c.var.user, await readJson(c)), 201),
  )
  .delete("/federation/blocks/:target", async (c) =>
    c.json(await c.var.services.federation.unblock(c.var.user, c.req.param("target"))),
  )
  .get("/federation/handle", async (c) => {
    const user = requireUser(c.var.user);
    return c.json({ handle: await c.var.services.federation.handleOf(user.id) });
  })
  .put("/federation/handle", async (c) => {
    const user = requireUser(c.var.user);
    return c.json(await c.var.services.federation.setHandle(user.id, await readJson(c)));
  })
  .get("/fediverse/following", async (c) => {
    c.header("Cache-Control", "private, no-store");
    return sendPage(c, await c.var.services.federation.remoteFollows.list(c.var.user, { page: c.req.query("page") }));
  })
  .post("/fediverse/following", async (c) =>
    c.json(await c.var.services.federation.remoteFollows.follow(c.var.user, await readJson(c)), 201),
  )
  .delete("/fediverse/following", async (c) =>
    c.json(await c.var.services.federation.remoteFollows.unfollow(c.var.user, c.req.query("actor") ?? "")),
  )
  .get("/fediverse/posts", async (c) => {
    c.header("Cache-Control", "private, no-store");
    return sendPage(c, await c.var.services.federation.timeline.list(c.var.user, { page: c.req.query("page") }));
  })
  .post("/fediverse/replies", async (c) =>
    c.json(await c.var.services.federation.timeline.reply(c.var.user, await readJson(c)), 201),
  );
