import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { REPLIES_SHOWN } from "#worker/services/comments/service.ts";
import { postPath } from "#worker/services/blogs/slug.ts";
import { db, makeBlog, makeUser, sessionFor } from "../support/factories";
import { call } from "../support/http";

const get = (path: string, cookie?: string) =>
  call(path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
/** Posts a form the way a browser without JavaScript does. */
function postForm(path: string, fields: Record<string, string>, cookie?: string) {
  return call(path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    redirect: "manual",
  });
}
const cookieOf = async (user: { id: string; email: string }) => `__Host-session=${await sessionFor(user)}`;
const commentsOf = (id: string) => db().select().from(schema.comments).where(eq(schema.comments.blogId, id));
/** The words of the first dashboard menu, as a screen reader reads its links. */
const menuText = (html: string) => {
  const start = html.indexOf('aria-label="Dashboard"');
  return html
    .slice(start, html.indexOf("</nav>", start))
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "");
};
const reportsOf = (id: string) =>
  db().select().from(schema.commentReports).where(eq(schema.commentReports.commentId, id));

describe("comment threads on /blogs/{id}, without JavaScript", () => {
  let writer: Awaited<ReturnType<typeof makeUser>>;
  let reader: Awaited<ReturnType<typeof makeUser>>;
  let other: Awaited<ReturnType<typeof makeUser>>;
  let blog: Awaited<ReturnType<typeof makeBlog>>;
  beforeAll(async () => {
    writer = await makeUser({ name: "Wanda Writer" });
    reader = await makeUser({ name: "Rita Reader" });
    other = await makeUser({ name: "Otto Other" });
    blog = await makeBlog(writer, { title: "A post to talk about" });
  });

  it("replies under a comment; a reply to a reply joins the same thread; the page shows them nested", async () => {
    const top = await postForm(postPath(blog), { intent: "comment", body: "A top comment" }, await cookieOf(reader));
    expect(top.status).toBe(303);
    const [topRow] = await commentsOf(blog.id);
    const reply = await postForm(
      postPath(blog),
      { intent: "comment", body: "A reply from Otto", parent_id: topRow!.id },
      await cookieOf(other),
    );
    expect(reply.status).toBe(303);
    expect(reply.headers.get("Location")).toMatch(/#comment-[0-9a-z]+$/);
    const replyRow = (await commentsOf(blog.id)).find((c) => c.body === "A reply from Otto")!;
    await postForm(
      postPath(blog),
      { intent: "comment", body: "The writer answers", parent_id: replyRow.id },
      await cookieOf(writer),
    );
    const rows = await commentsOf(blog.id);
    expect(rows.filter((c) => c.parentId === topRow!.id)).toHaveLength(2);

    const html = await (await get(postPath(blog), await cookieOf(reader))).text();
    // One thread: the replies are in the list of replies to Rita, in the order they were written.
    const thread = html.slice(html.indexOf('aria-label="Replies to Rita Reader"'));
    expect(thread.indexOf("A reply from Otto")).toBeGreaterThan(0);
    expect(thread.indexOf("The writer answers")).toBeGreaterThan(thread.indexOf("A reply from Otto"));
    expect(html).toContain(`name="parent_id" value="${topRow!.id}"`);
    expect(html).toMatch(/Comments <span[^>]*>\((<!-- -->)?3(<!-- -->)?\)<\/span>/);
    // A refused reply is told beside its own form, and nothing is stored.
    const empty = await postForm(
      postPath(blog),
      { intent: "comment", body: " ", parent_id: topRow!.id },
      await cookieOf(reader),
    );
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Comment is required.");
    const gone = await postForm(
      postPath(blog),
      { intent: "comment", body: "To nowhere", parent_id: "zzzzzzzzzzzzzzzzzzzz" },
      await cookieOf(reader),
    );
    expect(gone.status).toBe(404);
    expect(await commentsOf(blog.id)).toHaveLength(3);
  });

  it("shows the first replies and leads to the rest with ?thread=&replies=", async () => {
    const post = await makeBlog(writer, { title: "A busy thread" });
    await postForm(postPath(post), { intent: "comment", body: "Busy top" }, await cookieOf(reader));
    const [top] = await commentsOf(post.id);
    const base = Date.now();
    await db()
      .insert(schema.comments)
      .values(
        Array.from({ length: REPLIES_SHOWN + 2 }, (_, i) => ({
          id: `pgreply${String(i).padStart(3, "0")}${top!.id.slice(0, 10)}`,
          blogId: post.id,
          userId: other.id,
          body: `Numbered reply ${String(i).padStart(2, "0")}`,
          parentId: top!.id,
          createdAt: base + i,
        })),
      );
    const html = await (await get(postPath(post))).text();
    expect(html).toContain(`Numbered reply ${String(REPLIES_SHOWN - 1).padStart(2, "0")}`);
    expect(html).not.toContain(`Numbered reply ${REPLIES_SHOWN}`);
    expect(html).toContain("Show more replies (2)");
    const href = html.match(/href="([^"]*\?thread=[^"]+)"/)?.[1]?.replaceAll("&amp;", "&");
    expect(href).toBeTruthy();
    expect(href).toMatch(new RegExp(`^${postPath(post)}\\?thread=${top!.id}&replies=[^#]+#comment-${top!.id}$`));
    const more = await (await get(href!.split("#")[0]!)).text();
    expect(more).toContain(`Numbered reply ${REPLIES_SHOWN + 1}`);
    expect(more).not.toContain("Show more replies");
    // A made-up cursor is a 400, not a 500.
    expect((await get(`${postPath(post)}?thread=${top!.id}&replies=nonsense`)).status).toBe(400);
  });

  it("lets the post's writer delete any comment under their post (with its replies), not a stranger", async () => {
    const post = await makeBlog(writer, { title: "Moderated post" });
    await postForm(postPath(post), { intent: "comment", body: "Something abusive" }, await cookieOf(other));
    const [top] = await commentsOf(post.id);
    await postForm(
      postPath(post),
      { intent: "comment", body: "Agreeing with it", parent_id: top!.id },
      await cookieOf(reader),
    );
    // The writer sees Delete on every comment of their post; a reader only on their own.
    const writerHtml = await (await get(postPath(post), await cookieOf(writer))).text();
    expect(writerHtml).toContain('aria-label="Delete comment by Otto Other"');
    expect(writerHtml).toContain('aria-label="Delete reply by Rita Reader"');
    const readerHtml = await (await get(postPath(post), await cookieOf(reader))).text();
    expect(readerHtml).not.toContain('aria-label="Delete comment by Otto Other"');
    expect(readerHtml).toContain('aria-label="Delete reply by Rita Reader"');
    const refused = await postForm(
      postPath(post),
      { intent: "delete-comment", commentId: top!.id },
      await cookieOf(reader),
    );
    expect(refused.status).toBe(403);
    const ok = await postForm(postPath(post), { intent: "delete-comment", commentId: top!.id }, await cookieOf(writer));
    expect(ok.status).toBe(200);
    expect(await commentsOf(post.id)).toHaveLength(0);
  });

  it("takes a report once per person, with a reason, says so, and never offers one on your own comment", async () => {
    const post = await makeBlog(writer, { title: "Reported post" });
    await postForm(postPath(post), { intent: "comment", body: "Questionable" }, await cookieOf(other));
    const [c] = await commentsOf(post.id);
    const own = await (await get(postPath(post), await cookieOf(other))).text();
    expect(own).not.toContain("Why are you reporting this comment?");
    const visitor = await (await get(postPath(post))).text();
    expect(visitor).not.toContain("Why are you reporting this comment?");
    // The form asks why: three reasons, and a note for "something else".
    const readerPage = await (await get(postPath(post), await cookieOf(reader))).text();
    expect(readerPage).toContain("Why are you reporting this comment?");
    for (const reason of ["spam", "abuse", "other"])
      expect(readerPage.match(new RegExp(`<input[^>]*name="reason"[^>]*value="${reason}"[^>]*>`))?.[0]).toContain(
        'required=""',
      );
    expect(readerPage).toMatch(/name="note" maxlength="200"/i);
    // No reason: the form again, open, saying what is missing; nothing stored.
    const none = await postForm(postPath(post), { intent: "report-comment", commentId: c!.id }, await cookieOf(reader));
    expect(none.status).toBe(400);
    const noneHtml = await none.text();
    expect(noneHtml).toContain("Choose a reason: spam, abuse or other.");
    expect(noneHtml).toMatch(/<details[^>]*open=""[^>]*>\s*<summary[^>]*>Report/);
    expect(await reportsOf(c!.id)).toHaveLength(0);
    const first = await postForm(
      postPath(post),
      { intent: "report-comment", commentId: c!.id, reason: "other", note: "Not about the post" },
      await cookieOf(reader),
    );
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Reported. Thank you, an admin will look at it.");
    await postForm(
      postPath(post),
      { intent: "report-comment", commentId: c!.id, reason: "spam" },
      await cookieOf(reader),
    );
    expect(await reportsOf(c!.id)).toMatchObject([{ userId: reader.id, reason: "spam" }]);
    // The confirmation stays on the next visit, with the way to take it back.
    const later = await (await get(postPath(post), await cookieOf(reader))).text();
    expect(later).toContain("Reported. Thank you, an admin will look at it.");
    expect(later).toContain("Withdraw report");
    const withdrawn = await postForm(
      postPath(post),
      { intent: "withdraw-report", commentId: c!.id },
      await cookieOf(reader),
    );
    expect(withdrawn.status).toBe(200);
    const withdrawnHtml = await withdrawn.text();
    expect(withdrawnHtml).toContain("Your report is withdrawn.");
    expect(withdrawnHtml).not.toContain("Reported. Thank you");
    expect(await reportsOf(c!.id)).toHaveLength(0);
    // A visitor is asked to sign in; their own author cannot report it.
    const visitorPost = await postForm(postPath(post), { intent: "report-comment", commentId: c!.id, reason: "spam" });
    expect([302, 303]).toContain(visitorPost.status);
    const self = await postForm(
      postPath(post),
      { intent: "report-comment", commentId: c!.id, reason: "spam" },
      await cookieOf(other),
    );
    expect(self.status).toBe(403);
    expect(await reportsOf(c!.id)).toHaveLength(0);
  });
});

describe("/dashboard/comments", () => {
  it("lists reported comments for admins only, and keeps or deletes them", async () => {
    const writer = await makeUser({ name: "Dash Writer" });
    const reader = await makeUser({ name: "Dash Reader" });
    const troll = await makeUser({ name: "Dash Troll" });
    const admin = await makeUser({ name: "Dash Admin", role: "admin" });
    const post = await makeBlog(writer, { title: "Dashboard post" });
    for (const body of ["Keep me", "Delete me"]) {
      await postForm(postPath(post), { intent: "comment", body }, await cookieOf(troll));
    }
    const rows = await commentsOf(post.id);
    for (const c of rows) {
      await postForm(
        postPath(post),
        {
          intent: "report-comment",
          commentId: c.id,
          reason: c.body === "Keep me" ? "spam" : "other",
          note: "Sells pills",
        },
        await cookieOf(reader),
      );
    }
    // A writer gets their own comments page instead (below); never the reported list.
    const readerView = await (await get("/dashboard/comments", await cookieOf(reader))).text();
    expect(readerView).not.toContain("Reported Comments");
    expect(readerView).not.toContain("Keep me");
    expect([302, 303]).toContain((await get("/dashboard/comments")).status);
    const html = await (await get("/dashboard/comments", await cookieOf(admin))).text();
    expect(html).toContain("Keep me");
    expect(html).toContain("Delete me");
    expect(html).toContain("Dashboard post");
    expect(html).toMatch(/href="\/dashboard\/comments"[^>]*>.*?Comments</);
    // The reasons: one report each, spam for one, something else (with its note) for the other.
    expect(html).toContain("Spam<!-- -->: <!-- -->1");
    expect(html).toContain("Something else<!-- -->: <!-- -->1");
    expect(html.match(/Sells pills<\/q>/g)).toHaveLength(1);

    const keepId = rows.find((c) => c.body === "Keep me")!.id;
    const deleteId = rows.find((c) => c.body === "Delete me")!.id;
    const notAdmin = await postForm("/dashboard/comments", { intent: "keep", id: keepId }, await cookieOf(reader));
    expect(notAdmin.status).toBe(403);
    const kept = await postForm("/dashboard/comments", { intent: "keep", id: keepId }, await cookieOf(admin));
    expect([302, 303]).toContain(kept.status);
    const deleted = await postForm("/dashboard/comments", { intent: "delete", id: deleteId }, await cookieOf(admin));
    expect([302, 303]).toContain(deleted.status);
    expect((await commentsOf(post.id)).map((c) => c.body)).toEqual(["Keep me"]);
    expect(await reportsOf(keepId)).toHaveLength(0);
    const after = await (await get("/dashboard/comments", await cookieOf(admin))).text();
    expect(after).not.toContain("Keep me");
    expect((await postForm("/dashboard/comments", { intent: "nope", id: keepId }, await cookieOf(admin))).status).toBe(
      400,
    );
    expect((await get("/dashboard/comments?page=0", await cookieOf(admin))).status).toBe(400);
  });

  it("shows a writer every comment on their own posts, a page at a time, to delete; never another's", async () => {
    const wren = await makeUser({ name: "Wren Dash" });
    const otto = await makeUser({ name: "Otto Dash" });
    const rea = await makeUser({ name: "Rea Dash" });
    const mine = await makeBlog(wren, { title: "Wren's dashboard post" });
    const theirs = await makeBlog(otto, { title: "Otto's dashboard post" });
    await postForm(postPath(mine), { intent: "comment", body: "Rea on Wren's post" }, await cookieOf(rea));
    await postForm(postPath(theirs), { intent: "comment", body: "Rea on Otto's post" }, await cookieOf(rea));
    const [onMine] = await commentsOf(mine.id);
    const [onTheirs] = await commentsOf(theirs.id);
    await postForm(
      postPath(mine),
      { intent: "comment", body: "Otto answers on Wren's post", parent_id: onMine!.id },
      await cookieOf(otto),
    );

    const res = await get("/dashboard/comments", await cookieOf(wren));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain("Comments on Your Posts");
    expect(html).toContain("Rea on Wren&#x27;s post");
    expect(html).toContain("Otto answers on Wren&#x27;s post");
    expect(html).toContain(`href="${postPath(mine)}#comment-${onMine!.id}"`);
    expect(html).not.toContain("Rea on Otto");
    expect(html).toContain('aria-label="Delete comment by Rea Dash"');
    // The writer's menu leads here.
    const nav = html.slice(html.indexOf('aria-label="Dashboard"'));
    expect(nav).toMatch(/href="\/dashboard\/comments"[^>]*>.*?Comments<\/a>/);
    // Otto's list has the comment on his post only.
    const ottoHtml = await (await get("/dashboard/comments", await cookieOf(otto))).text();
    expect(ottoHtml).toContain("Rea on Otto&#x27;s post");
    expect(ottoHtml).not.toContain("Rea on Wren");

    // Deleting: on another writer's post it is the 403 page and nothing changes; keeping is for admins.
    const refused = await postForm("/dashboard/comments", { intent: "delete", id: onTheirs!.id }, await cookieOf(wren));
    expect(refused.status).toBe(403);
    expect(await commentsOf(theirs.id)).toHaveLength(1);
    const keep = await postForm("/dashboard/comments", { intent: "keep", id: onMine!.id }, await cookieOf(wren));
    expect(keep.status).toBe(403);
    const deleted = await postForm("/dashboard/comments", { intent: "delete", id: onMine!.id }, await cookieOf(wren));
    expect([302, 303]).toContain(deleted.status);
    expect(await commentsOf(mine.id)).toHaveLength(0);

    // A page at a time: 21 comments are two pages, the oldest on the second.
    const now = Date.now();
    // (Seven rows a statement: D1 takes at most 100 bound values in one.)
    for (let from = 0; from < 21; from += 7) {
      await db()
        .insert(schema.comments)
        .values(
          Array.from({ length: 7 }, (_, k) => from + k).map((i) => ({
            id: `wrenpage${String(i).padStart(12, "0")}`,
            blogId: mine.id,
            userId: rea.id,
            body: `Paged comment ${i}`,
            createdAt: now + i,
          })),
        );
    }
    const first = await (await get("/dashboard/comments", await cookieOf(wren))).text();
    expect(first).toContain("Paged comment 20");
    expect(first).not.toContain("Paged comment 0<");
    expect(first).toContain('aria-label="Comment pages"');
    const second = await (await get("/dashboard/comments?page=2", await cookieOf(wren))).text();
    expect(second).toContain("Paged comment 0<");
    expect(second).not.toContain("Paged comment 20");
    expect((await get("/dashboard/comments?page=0", await cookieOf(wren))).status).toBe(400);
  });

  it("shows an admin what waits beside Manage Review and Comments, never a writer, on answers no cache shares", async () => {
    const admin = await makeUser({ name: "Menu Admin", role: "admin" });
    const writer = await makeUser({ name: "Menu Writer" });
    const reader = await makeUser({ name: "Menu Reader" });
    const post = await makeBlog(writer, { title: "Menu count post" });
    await db()
      .insert(schema.reviews)
      .values({
        id: `menurev${Date.now().toString(36)}`,
        name: "Pending Reviewer",
        designation: "Nurse",
        review: "Waiting.",
        image: "/images/test-image-0001.png",
        status: "pending",
      });
    await postForm(postPath(post), { intent: "comment", body: "Count this one" }, await cookieOf(writer));
    const [c] = await commentsOf(post.id);
    await postForm(
      postPath(post),
      { intent: "report-comment", commentId: c!.id, reason: "abuse" },
      await cookieOf(reader),
    );
    const pending = await db().select().from(schema.reviews).where(eq(schema.reviews.status, "pending"));
    const reported = new Set((await db().select().from(schema.commentReports)).map((r) => r.commentId));

    const res = await get("/dashboard", await cookieOf(admin));
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await res.text();
    // The links read "Manage Review, 3 pending" and "Comments, 2 reported" (the words for screen readers only).
    expect(menuText(html)).toContain(`Manage Review, ${pending.length} pending`);
    expect(menuText(html)).toContain(`Comments, ${reported.size} reported`);
    // The layout's data request is as personal as the page.
    const data = await get("/dashboard.data", await cookieOf(admin));
    expect(data.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await data.text()).toContain("reportedComments");
    // A writer's menu has no numbers.
    const writerHtml = await (await get("/dashboard", await cookieOf(writer))).text();
    expect(menuText(writerHtml)).not.toMatch(/ pending| reported/);
    expect(menuText(writerHtml)).toContain("Comments");
    const writerData = await (await get("/dashboard.data", await cookieOf(writer))).text();
    expect(writerData).not.toContain("pendingReviews");

    // Keeping the comment takes it off the count at once.
    await postForm("/dashboard/comments", { intent: "keep", id: c!.id }, await cookieOf(admin));
    const after = await (await get("/dashboard", await cookieOf(admin))).text();
    const left = reported.size - 1;
    if (left > 0) expect(menuText(after)).toContain(`Comments, ${left} reported`);
    else expect(menuText(after)).not.toContain(" reported");
  });
});
