import { Hono } from "hono";
import { readJson } from "./body";
import type { ApiEnv } from "./context";
import { pagingOf, sendPage } from "./paging";

/** The contact form's /contact call, and the admin inbox that reads it. */
export const contactApi = new Hono<ApiEnv>()
  .post("/contact", async (c) => c.json(await c.var.services.contact.send(c.var.user, await readJson(c)), 201))
  .get("/contact", async (c) => sendPage(c, await c.var.services.contact.inboxPage(c.var.user, pagingOf(c))));
