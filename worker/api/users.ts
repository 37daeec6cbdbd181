import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/** The spec's /jwt and /users calls. */
export const usersApi = new Hono<ApiEnv>()
  .post("/jwt", async (c) =>
    c.json(await c.var.services.users.issueToken(c.var.user, await readJson(c), await c.var.client(), c.var.sessionId)),
  )
  .post("/users", async (c) => c.json(await c.var.services.users.recordUser(c.var.user, await readJson(c))))
  // A page of accounts (page/limit, optional q: name or email), with X-Total-Count and Link.
  .get("/users", async (c) =>
    sendPage(c, await c.var.services.users.list(c.var.user, { ...pagingOf(c), q: c.req.query("q") })),
  )
  // The /users/admin/... routes come first so that "admin" is never read as a user id.
  .get("/users/admin/:email", async (c) =>
    c.json(await c.var.services.users.isAdminByEmail(c.var.user, c.req.param("email"))),
  )
  .put("/users/admin/:id", async (c) => c.json(await c.var.services.users.makeAdmin(c.var.user, c.req.param("id"))))
  .delete("/users/admin/:id", async (c) =>
    c.json(await c.var.services.users.revokeAdmin(c.var.user, c.req.param("id"))),
  )
  .delete("/users/:id", async (c) => c.json(await c.var.services.users.remove(c.var.user, c.req.param("id"))));
