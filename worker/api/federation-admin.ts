import { createRoute, z } from "@hono/zod-openapi";
import {
  bodyErrors,
  contractApp,
  Deleted,
  errors,
  Inserted,
  json,
  jsonBody,
  Modified,
  Page,
  readsJson,
  Record_,
  TextParam,
} from "#worker/api/contract.ts";
import { sendPage } from "#worker/api/paging.ts";
import { requireUser } from "#worker/services/shared/policy.ts";
import { blockInput } from "#worker/services/federation/blocks.ts";
import { handleInput } from "#worker/services/federation/actors.ts";
import { targetInput } from "#worker/services/federation/following.ts";
import { replyInput } from "#worker/services/federation/timeline.ts";

const PageQuery = z.object({ page: z.string().optional() });

const routes = {
  blocks: createRoute({
    method: "get",
    path: "/federation/blocks",
    summary: "The blocked fediverse accounts and servers (admin)",
    request: { query: PageQuery },
    responses: { 200: json(z.object({ blocks: z.array(Record_) })), ...errors },
  }),
  block: createRoute({
    method: "post",
    path: "/federation/blocks",
    summary: "Block a fediverse account or server (admin)",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(blockInput) },
    responses: { 201: json(Inserted, "Created"), ...bodyErrors },
  }),
  unblock: createRoute({
    method: "delete",
    path: "/federation/blocks/{target}",
    summary: "Lift a block (admin)",
    request: { params: z.object({ target: TextParam }) },
    responses: { 200: json(Deleted), ...errors },
  }),
  handle: createRoute({
    method: "get",
    path: "/federation/handle",
    summary: "The signed-in writer's fediverse handle",
    responses: { 200: json(z.object({ handle: z.string().nullable() })), ...errors },
  }),
  setHandle: createRoute({
    method: "put",
    path: "/federation/handle",
    summary: "Choose the signed-in writer's fediverse handle",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(handleInput) },
    responses: { 200: json(Modified), ...bodyErrors },
  }),
  following: createRoute({
    method: "get",
    path: "/fediverse/following",
    summary: "The remote accounts the signed-in person follows, a page at a time",
    request: { query: PageQuery },
    responses: { 200: Page, ...errors },
  }),
  follow: createRoute({
    method: "post",
    path: "/fediverse/following",
    summary: "Follow a remote account",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(targetInput) },
    responses: { 201: json(Record_, "Created"), ...bodyErrors },
  }),
  unfollow: createRoute({
    method: "delete",
    path: "/fediverse/following",
    summary: "Stop following a remote account",
    request: { query: z.object({ actor: z.string().optional() }) },
    responses: { 200: json(Record_), ...errors },
  }),
  posts: createRoute({
    method: "get",
    path: "/fediverse/posts",
    summary: "The posts the followed remote accounts sent, a page at a time",
    request: { query: PageQuery },
    responses: { 200: Page, ...errors },
  }),
  reply: createRoute({
    method: "post",
    path: "/fediverse/replies",
    summary: "Reply to a remote post",
    middleware: [readsJson()] as const,
    request: { body: jsonBody(replyInput) },
    responses: { 201: json(Record_, "Created"), ...bodyErrors },
  }),
};

/**
 * The fediverse settings: an admin's blocks, a writer's handle; and an account's remote
 * follows, the posts they send, and replies to them (the fediverse in miniature). Personal: no-store.
 */
export const federationApi = contractApp()
  .openapi(routes.blocks, async (c) =>
    c.json({ blocks: await c.var.services.federation.blocks(c.var.user, c.req.valid("query")) }, 200),
  )
  .openapi(routes.block, async (c) =>
    c.json(await c.var.services.federation.block(c.var.user, c.req.valid("json")), 201),
  )
  .openapi(routes.unblock, async (c) =>
    c.json(await c.var.services.federation.unblock(c.var.user, c.req.valid("param").target), 200),
  )
  .openapi(routes.handle, async (c) => {
    const user = requireUser(c.var.user);
    return c.json({ handle: await c.var.services.federation.handleOf(user.id) }, 200);
  })
  .openapi(routes.setHandle, async (c) => {
    const user = requireUser(c.var.user);
    return c.json(await c.var.services.federation.setHandle(user.id, c.req.valid("json")), 200);
  })
  .openapi(routes.following, async (c) => {
    c.header("Cache-Control", "private, no-store");
    return sendPage(c, await c.var.services.federation.remoteFollows.list(c.var.user, c.req.valid("query")));
  })
  .openapi(routes.follow, async (c) =>
    c.json(await c.var.services.federation.remoteFollows.follow(c.var.user, c.req.valid("json")), 201),
  )
  .openapi(routes.unfollow, async (c) =>
    c.json(await c.var.services.federation.remoteFollows.unfollow(c.var.user, c.req.valid("query").actor ?? ""), 200),
  )
  .openapi(routes.posts, async (c) => {
    c.header("Cache-Control", "private, no-store");
    return sendPage(c, await c.var.services.federation.timeline.list(c.var.user, c.req.valid("query")));
  })
  .openapi(routes.reply, async (c) =>
    c.json(await c.var.services.federation.timeline.reply(c.var.user, c.req.valid("json")), 201),
  );
