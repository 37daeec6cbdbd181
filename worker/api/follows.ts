import { Hono } from "hono";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/** Following writers: personal answers, never shared (worker/cache/policy.ts lists none of these). */
export const followsApi = new Hono<ApiEnv>()
  .get("/writers/:id/follow", async (c) => c.json(await c.var.services.follows.stateOf(c.var.user, c.req.param("id"))))
  .post("/writers/:id/follow", async (c) => c.json(await c.var.services.follows.follow(c.var.user, c.req.param("id"))))
  .delete("/writers/:id/follow", async (c) =>
    c.json(await c.var.services.follows.unfollow(c.var.user, c.req.param("id"))),
  )
  .get("/following", async (c) => sendPage(c, await c.var.services.follows.feed(c.var.user, pagingOf(c))))
  .get("/follows", async (c) => sendPage(c, await c.var.services.follows.writers(c.var.user, pagingOf(c))));
