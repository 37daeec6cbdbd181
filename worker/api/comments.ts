import { Hono } from "hono";
import { readJson } from "#worker/api/body.ts";
import type { ApiEnv } from "#worker/api/context.ts";
import { pagingOf, sendPage } from "#worker/api/paging.ts";

/** Comments, replies and reports; a post's comment list itself is GET /api/blogs/{id}/comments. */
export const commentsApi = new Hono<ApiEnv>()
  // A comment, or with `parent_id` a reply (one level: a reply to a reply joins the same top comment).
  .post("/blogs/:id/comments", async (c) =>
    c.json(await c.var.services.comments.create(c.var.user, c.req.param("id"), await readJson(c)), 201),
  )
  // Admins: the reported comments, most recently reported first.
  .get("/comments/reported", async (c) =>
    sendPage(c, await c.var.services.commentReports.reported(c.var.user, pagingOf(c))),
  )
  // A top comment's replies after the ones its post page shows (oldest first, by cursor).
  .get("/comments/:id/replies", async (c) =>
    sendPage(c, await c.var.services.comments.replies(c.req.param("id"), pagingOf(c))),
  )
  // Its author, the post's writer, or an admin.
  .delete("/comments/:id", async (c) => c.json(await c.var.services.comments.remove(c.var.user, c.req.param("id"))))
  // Anyone signed in, once, with `{reason, note?}` (a repeat is the same report, with the latest reason).
  .post("/comments/:id/report", async (c) =>
    c.json(await c.var.services.commentReports.report(c.var.user, c.req.param("id"), await readJson(c))),
  )
  // The reporter withdraws their own report.
  .delete("/comments/:id/report", async (c) =>
    c.json(await c.var.services.commentReports.withdraw(c.var.user, c.req.param("id"))),
  )
  // Admins: keep a reported comment (clears its reports).
  .delete("/comments/:id/reports", async (c) =>
    c.json(await c.var.services.commentReports.keep(c.var.user, c.req.param("id"))),
  );
