import { createRoute } from "@hono/zod-openapi";
import { contractApp, errors, IdParams, json, Page, PagingQuery, Record_ } from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";

const routes = {
  state: createRoute({
    method: "get",
    path: "/writers/{id}/follow",
    summary: "Whether the signed-in person follows this writer",
    request: { params: IdParams },
    responses: { 200: json(Record_), ...errors },
  }),
  follow: createRoute({
    method: "post",
    path: "/writers/{id}/follow",
    summary: "Follow a writer",
    request: { params: IdParams },
    responses: { 200: json(Record_), ...errors },
  }),
  unfollow: createRoute({
    method: "delete",
    path: "/writers/{id}/follow",
    summary: "Stop following a writer",
    request: { params: IdParams },
    responses: { 200: json(Record_), ...errors },
  }),
  feed: createRoute({
    method: "get",
    path: "/following",
    summary: "Posts of the writers the signed-in person follows, a page at a time",
    request: { query: PagingQuery },
    responses: { 200: Page, ...errors },
  }),
  writers: createRoute({
    method: "get",
    path: "/follows",
    summary: "The writers the signed-in person follows, a page at a time",
    request: { query: PagingQuery },
    responses: { 200: Page, ...errors },
  }),
};

/** Following writers: personal answers, never shared (worker/cache/policy.ts lists none of these). */
export const followsApi = contractApp()
  .openapi(routes.state, async (c) =>
    c.json(await c.var.services.follows.stateOf(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.follow, async (c) =>
    c.json(await c.var.services.follows.follow(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.unfollow, async (c) =>
    c.json(await c.var.services.follows.unfollow(c.var.user, c.req.valid("param").id), 200),
  )
  .openapi(routes.feed, async (c) => sendPage(c, await c.var.services.follows.feed(c.var.user, c.req.valid("query"))))
  .openapi(routes.writers, async (c) =>
    sendPage(c, await c.var.services.follows.writers(c.var.user, c.req.valid("query"))),
  );
