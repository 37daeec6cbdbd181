import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { REPLIES_SHOWN } from "#worker/services/comments/service.ts";
import { Forbidden, NotFound, Unauthorized, ValidationError } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeBlog, makeUser } from "../support/factories";

const services = () => createServices(env);
const actor = (u: { id: string; name: string; email: string; role?: "user" | "admin" }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role ?? "user",
  photoURL: null,
});
const rows = async (blogId: string) => db().select().from(schema.comments).where(eq(schema.comments.blogId, blogId));

describe("replies, the writer's and admin's delete rights, and reports", () => {
  let writer: Actor;
  let ada: Actor;
  let bob: Actor;
  let admin: Actor;
  let otherWriter: Actor;
  beforeAll(async () => {
    writer = actor(await makeUser({ name: "Writer" }));
    ada = actor(await makeUser({ name: "Ada" }));
    bob = actor(await makeUser({ name: "Bob" }));
    admin = actor(await makeUser({ name: "Admin", role: "admin" }));
    otherWriter = actor(await makeUser({ name: "Other Writer" }));
  });

  it("shows a reply under its comment; a reply to a reply attaches to the top comment", async () => {
    const blog = await makeBlog(writer);
    const top = await services().comments.create(ada, blog.id, { body: "Top" });
    expect(top.parentId).toBeNull();
    const reply = await services().comments.create(bob, blog.id, { body: "Reply", parent_id: top.insertedId });
    expect(reply).toMatchObject({ parentId: top.insertedId, blogId: blog.id, userId: bob.id });
    const deeper = await services().comments.create(ada, blog.id, { body: "Deeper", parent_id: reply.insertedId });
    expect(deeper.parentId).toBe(top.insertedId);
    await services().comments.create(bob, blog.id, { body: "Another top" });

    const page = await services().comments.list(blog.id);
    // Replies are not top comments: two threads, the newest first; the total counts threads.
    expect(page.items.map((c) => c.body)).toEqual(["Another top", "Top"]);
    expect(page.total).toBe(2);
    const thread = page.items[1]!;
    expect(thread.reply_count).toBe(2);
    expect(thread.replies.map((r) => [r.body, r.parent_id])).toEqual([
      ["Reply", top.insertedId],
      ["Deeper", top.insertedId],
    ]);
    // The post page reads the same threads, and its heading counts every comment.
    const post = await services().reading.post(null, blog.id);
    expect(post.comments).toEqual(page.items);
    expect(post.commentCount).toBe(4);
  });

  it("bounds the replies shown under a comment and pages the rest, oldest first", async () => {
    const blog = await makeBlog(writer);
    const top = await services().comments.create(ada, blog.id, { body: "Busy thread" });
    const parent_id = top.insertedId;
    // Written straight to the table: the per-person comment limit is not what this test is about.
    const base = Date.now();
    await db()
      .insert(schema.comments)
      .values(
        Array.from({ length: REPLIES_SHOWN + 3 }, (_, i) => ({
          id: `reply${String(i).padStart(3, "0")}${top.insertedId.slice(0, 12)}`,
          blogId: blog.id,
          userId: bob.id,
          body: `Reply ${i}`,
          parentId: parent_id,
          createdAt: base + i,
        })),
      );
    const [thread] = (await services().comments.list(blog.id)).items;
    expect(thread!.replies).toHaveLength(REPLIES_SHOWN);
    expect(thread!.reply_count).toBe(REPLIES_SHOWN + 3);
    expect(thread!.replies_next).toBeTruthy();
    const more = await services().comments.replies(parent_id, { cursor: thread!.replies_next! });
    expect(more.items.map((r) => r.body)).toEqual(Array.from({ length: 3 }, (_, i) => `Reply ${REPLIES_SHOWN + i}`));
    expect(more.next).toBeNull();
    expect(more.total).toBe(REPLIES_SHOWN + 3);
    const firstTwo = await services().comments.replies(parent_id, { limit: "2" });
    expect(firstTwo.items.map((r) => r.body)).toEqual(["Reply 0", "Reply 1"]);
    await expect(services().comments.replies(parent_id, { cursor: "not-a-cursor" })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(services().comments.replies("zzzzzzzzzzzzzzzzzzzz")).rejects.toBeInstanceOf(NotFound);
  });

  it("refuses a reply to an unknown comment, to another post's comment, or a parent that is not text", async () => {
    const blog = await makeBlog(writer);
    const elsewhere = await makeBlog(writer);
    const there = await services().comments.create(ada, elsewhere.id, { body: "Elsewhere" });
    await expect(
      services().comments.create(bob, blog.id, { body: "Lost", parent_id: "zzzzzzzzzzzzzzzzzzzz" }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      services().comments.create(bob, blog.id, { body: "Lost", parent_id: there.insertedId }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(services().comments.create(bob, blog.id, { body: "Lost", parent_id: "../x" })).rejects.toBeInstanceOf(
      NotFound,
    );
    await expect(services().comments.create(bob, blog.id, { body: "Lost", parent_id: 42 })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      services().comments.create(null, blog.id, { body: "Lost", parent_id: there.insertedId }),
    ).rejects.toBeInstanceOf(Unauthorized);
    expect(await rows(blog.id)).toHaveLength(0);
    // A draft's comments are nobody's to answer.
    const draft = await makeBlog(writer, { status: "draft" });
    await expect(services().comments.create(ada, draft.id, { body: "Hidden" })).rejects.toBeInstanceOf(NotFound);
  });

  it("lets the post's writer delete any comment on their own posts, and only theirs", async () => {
    const blog = await makeBlog(writer);
    const other = await makeBlog(otherWriter);
    const top = await services().comments.create(ada, blog.id, { body: "Abusive" });
    await services().comments.create(bob, blog.id, { body: "Reply", parent_id: top.insertedId });
    const onOther = await services().comments.create(ada, other.id, { body: "On another post" });
    // Another writer has no say over this post's comments, nor this writer over theirs.
    await expect(services().comments.remove(otherWriter, top.insertedId)).rejects.toBeInstanceOf(Forbidden);
    await expect(services().comments.remove(writer, onOther.insertedId)).rejects.toBeInstanceOf(Forbidden);
    // A reader cannot delete another reader's comment.
    await expect(services().comments.remove(bob, top.insertedId)).rejects.toBeInstanceOf(Forbidden);
    // The writer deletes it; its replies go with it.
    expect(await services().comments.remove(writer, top.insertedId)).toEqual({ deletedCount: 1 });
    expect(await rows(blog.id)).toHaveLength(0);
    expect(await rows(other.id)).toHaveLength(1);
  });

  it("lets an admin delete a comment or a reply on any post; a reply's author deletes their own", async () => {
    const blog = await makeBlog(writer);
    const top = await services().comments.create(ada, blog.id, { body: "Top" });
    const r1 = await services().comments.create(bob, blog.id, { body: "R1", parent_id: top.insertedId });
    const r2 = await services().comments.create(ada, blog.id, { body: "R2", parent_id: top.insertedId });
    expect(await services().comments.remove(admin, r1.insertedId)).toEqual({ deletedCount: 1 });
    expect(await services().comments.remove(ada, r2.insertedId)).toEqual({ deletedCount: 1 });
    const [thread] = (await services().comments.list(blog.id)).items;
    expect(thread).toMatchObject({ body: "Top", reply_count: 0, replies: [] });
  });

  it("takes one report per person, refuses visitors and one's own comment, and lets admins keep or delete", async () => {
    const blog = await makeBlog(writer);
    const bad = await services().comments.create(ada, blog.id, { body: "Reported twice" });
    const fine = await services().comments.create(ada, blog.id, { body: "Reported, then kept" });
    const reports = services().commentReports;
    const spam = { reason: "spam" };
    expect(await reports.report(bob, bad.insertedId, spam)).toEqual({ reported: true, reason: "spam" });
    // Idempotent: the same person's second report is the same report.
    expect(await reports.report(bob, bad.insertedId, spam)).toEqual({ reported: true, reason: "spam" });
    await reports.report(writer, bad.insertedId, spam);
    await reports.report(bob, fine.insertedId, spam);
    await expect(reports.report(null, bad.insertedId, spam)).rejects.toBeInstanceOf(Unauthorized);
    await expect(reports.report(ada, bad.insertedId, spam)).rejects.toBeInstanceOf(Forbidden);
    await expect(reports.report(bob, "zzzzzzzzzzzzzzzzzzzz", spam)).rejects.toBeInstanceOf(NotFound);
    await expect(reports.report(bob, "<script>", spam)).rejects.toBeInstanceOf(NotFound);

    // Only admins see the list.
    await expect(reports.reported(bob)).rejects.toBeInstanceOf(Forbidden);
    await expect(reports.reported(writer)).rejects.toBeInstanceOf(Forbidden);
    await expect(reports.reported(null)).rejects.toBeInstanceOf(Unauthorized);
    const mine = (await reports.reported(admin, { limit: "50" })).items.filter((c) => c.blog._id === blog.id);
    // (Most recently reported first; two reports in the same millisecond may come either way.)
    mine.sort((a, b) => b.body.localeCompare(a.body));
    expect(mine.map((c) => [c.body, c.reports])).toEqual([
      ["Reported, then kept", 1],
      ["Reported twice", 2],
    ]);
    expect(mine[0]).toMatchObject({ author: { _id: ada.id, name: "Ada" }, blog: { title: blog.title } });
    await expect(reports.reported(admin, { page: "0" })).rejects.toBeInstanceOf(ValidationError);

    // Keep clears its reports (admins only); delete removes the comment and its reports.
    await expect(reports.keep(bob, fine.insertedId)).rejects.toBeInstanceOf(Forbidden);
    expect(await reports.keep(admin, fine.insertedId)).toEqual({ clearedCount: 1 });
    expect(await services().comments.remove(admin, bad.insertedId)).toEqual({ deletedCount: 1 });
    const left = (await reports.reported(admin, { limit: "50" })).items.filter((c) => c.blog._id === blog.id);
    expect(left).toEqual([]);
    expect((await rows(blog.id)).map((c) => c.body)).toEqual(["Reported, then kept"]);
  });
});
