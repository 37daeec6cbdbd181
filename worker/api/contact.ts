import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/** The contact form's /contact call, and the admin inbox that reads it. */
export const contactApi = new Hono<ApiEnv>()
  .post("/contact", async (c) =>
    c.json(await c.var.services.contact.send(c.var.user, await readJson(c), c.req.header("CF-Connecting-IP")), 201),
  )
  .get("/contact", async (c) => sendPage(c, await c.var.services.contact.inboxPage(c.var.user, pagingOf(c))));
