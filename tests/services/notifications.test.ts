import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { POST_FANOUT_PAGE } from "#worker/services/notifications/service.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { db, makeBlog, makeUser } from "../support/factories";
import { notificationWorld } from "../support/kernel";

async function person(overrides: Parameters<typeof makeUser>[0] = {}): Promise<Actor & { email: string }> {
  const u = await makeUser(overrides);
  return { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null, emailVerified: true };
}

const mine = (userId: string) =>
  db().select().from(schema.notifications).where(eq(schema.notifications.userId, userId));

describe("notifications", () => {
  it("a comment tells the post's writer (never about their own), in the app and by email by default", async () => {
    const w = notificationWorld();
    const author = await person({ name: "Post Author" });
    const reader = await person({ name: "Commenter" });
    const blog = await makeBlog(author, { title: "Commented post" });
    await w.services().comments.create(reader, blog.id, { body: "Nice one" });
    await w.services().comments.create(author, blog.id, { body: "Thanks" });
    const rows = await mine(author.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "comment", actorId: reader.id, blogId: blog.id });
    const list = await w.services().notifications.list(author);
    expect(list.items[0]).toMatchObject({ text: "Commenter commented on “Commented post”", read: false });
    // The bell's link lands on the comment itself.
    expect(list.items[0]!.url).toBe(`/blogs/${blog.id}#comment-${rows[0]!.commentId}`);
    expect(await w.services().notifications.unread(author)).toBe(1);
    // Comments are mailed a minute later, together with any that came in meanwhile (the minute cron).
    expect(w.box.to(author.email)).toHaveLength(0);
    await w.services().notifications.flushBatches(Date.now() + 61_000);
    const mails = w.box.to(author.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Commenter commented on “Commented post”");
    expect(mails[0]!.text).toContain(`https://blog.test/blogs/${blog.id}#comments`);
  });

  it("a reply tells the person answered (and the writer hears of the comment once)", async () => {
    const w = notificationWorld();
    const author = await person();
    const first = await person({ name: "First Commenter" });
    const replier = await person({ name: "Replier" });
    const blog = await makeBlog(author, { title: "Thread" });
    const { insertedId } = await w.services().comments.create(first, blog.id, { body: "Question?" });
    const reply = await w.services().comments.create(replier, blog.id, { body: "Answer.", parent_id: insertedId });
    const theirs = await mine(first.id);
    expect(theirs.map((r) => r.kind)).toEqual(["reply"]);
    expect((await w.services().notifications.list(first)).items[0]!.text).toBe(
      "Replier replied to your comment on “Thread”",
    );
    // The writer: one notification per comment, whichever way it arrived.
    expect((await mine(author.id)).map((r) => r.commentId).sort()).toEqual([insertedId, reply.insertedId].sort());
  });

  it("a new follower tells the writer once, even after unfollowing and following again", async () => {
    const w = notificationWorld();
    const writer = await person();
    const fan = await person({ name: "Fan" });
    await w.services().follows.follow(fan, writer.id);
    await w.services().follows.unfollow(fan, writer.id);
    await w.services().follows.follow(fan, writer.id);
    const rows = await mine(writer.id);
    expect(rows).toHaveLength(1);
    expect((await w.services().notifications.list(writer)).items[0]).toMatchObject({
      kind: "follow",
      text: "Fan started following you",
      url: `/writers/${fan.id}`,
    });
    // Follows are not emailed unless chosen.
    expect(w.box.to(writer.email)).toHaveLength(0);
  });

  it("likes are summed per post and day in one notification", async () => {
    const w = notificationWorld();
    const author = await person();
    const blog = await makeBlog(author, { title: "Liked post" });
    const likers = [await person(), await person(), await person({ name: "Last Liker" })];
    for (const l of likers) await w.services().likes.toggle(l, blog.id);
    await w.services().likes.toggle(author, blog.id);
    const rows = await mine(author.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "like", count: 3, actorId: likers[2]!.id });
    expect((await w.services().notifications.list(author)).items[0]!.text).toBe("3 people liked “Liked post” today");
  });

  it("a followed writer's new post reaches every follower once through the queue, also when batches are retried", async () => {
    const w = notificationWorld();
    const writer = await person({ name: "Prolific" });
    const followers = [];
    for (let i = 0; i < POST_FANOUT_PAGE + 3; i++) followers.push(await person());
    const statements = followers.map((f) =>
      db().insert(schema.follows).values({ followerId: f.id, writerId: writer.id }),
    );
    await db().batch(statements as [(typeof statements)[0], ...typeof statements]);
    const emailed = followers[0]!;
    await w.services().notifications.setPrefs(emailed, { post: "instant" });
    const created = await w.services().blogs.create(writer, {
      title: "Fresh post",
      short_description: "Short.",
      blog_details: "Body.",
      category: "Technology",
      date_time: "2026-11-20T10:00:00.000Z",
      image: "/images/cover-0001.png",
    });
    await w.queue.drain(w.env, { twice: true });
    for (const f of [followers[0]!, followers[30]!, followers[POST_FANOUT_PAGE + 2]!]) {
      const rows = await mine(f.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: "post", blogId: created.insertedId, actorId: writer.id });
    }
    // Only the one who chose it gets the email, once.
    expect(w.box.to(emailed.email)).toHaveLength(1);
    expect(w.box.to(emailed.email)[0]!.subject).toBe("Prolific published “Fresh post”");
    expect(w.box.to(followers[1]!.email)).toHaveLength(0);
    // Publishing it again adds nothing.
    await w.services().notifications.announce(created.insertedId);
    await w.queue.drain(w.env);
    expect(await mine(followers[1]!.id)).toHaveLength(1);
  });

  it("a draft or a post scheduled for later notifies nobody, and a post pulled back vanishes from the list", async () => {
    const w = notificationWorld();
    const writer = await person();
    const fan = await person();
    await w.services().follows.follow(fan, writer.id);
    const draft = await makeBlog(writer, { status: "draft", title: "Secret draft" });
    await w.services().notifications.announce(draft.id);
    await w.queue.drain(w.env);
    expect(await mine(fan.id)).toHaveLength(0);

    const shown = await makeBlog(writer, { title: "Pulled back" });
    await w.services().notifications.announce(shown.id);
    await w.queue.drain(w.env);
    expect(await w.services().notifications.unread(fan)).toBe(1);
    await db().update(schema.blogs).set({ status: "draft" }).where(eq(schema.blogs.id, shown.id));
    expect(await w.services().notifications.unread(fan)).toBe(0);
    expect(JSON.stringify(await w.services().notifications.list(fan))).not.toContain("Pulled back");
  });

  it("email choices: off sends nothing, digest sends one daily message once, an unverified address gets none", async () => {
    const w = notificationWorld();
    const quiet = await person();
    const digest = await person();
    const unverified = await person({ emailVerifiedAt: null });
    await w.services().notifications.setPrefs(quiet, { comment: "off" });
    await w.services().notifications.setPrefs(digest, { comment: "digest", follow: "digest" });
    expect(await w.services().notifications.prefs(digest)).toEqual({
      comment: "digest",
      reply: "instant",
      follow: "digest",
      post: "off",
      like: "off",
    });
    await expect(w.services().notifications.setPrefs(digest, { like: "hourly" })).rejects.toThrow();
    const commenter = await person({ name: "Talker" });
    for (const who of [quiet, digest, unverified]) {
      const blog = await makeBlog(who, { title: `Post of ${who.id}` });
      await w.services().comments.create(commenter, blog.id, { body: "Hello" });
    }
    await w.services().follows.follow(commenter, digest.id);
    expect(w.box.to(quiet.email)).toHaveLength(0);
    expect(w.box.to(digest.email)).toHaveLength(0);
    expect(w.box.to(unverified.email)).toHaveLength(0);

    // The daily cron, later: one message with both lines; a second run (or a retried job) sends nothing.
    await w.services().notifications.startDigest(Date.now() + 10 * 60 * 1000);
    await w.queue.drain(w.env, { twice: true });
    const mails = w.box.to(digest.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`Talker commented on “Post of ${digest.id}”`);
    expect(mails[0]!.text).toContain("Talker started following you");
    await w.services().notifications.startDigest(Date.now() + 20 * 60 * 1000);
    await w.queue.drain(w.env);
    expect(w.box.to(digest.email)).toHaveLength(1);
    expect(w.box.to(quiet.email)).toHaveLength(0);
    expect(w.box.to(unverified.email)).toHaveLength(0);
  });

  it("marks one or all read, only the person's own", async () => {
    const w = notificationWorld();
    const author = await person();
    const other = await person();
    const blog = await makeBlog(author);
    for (let i = 0; i < 3; i++) await w.services().comments.create(other, blog.id, { body: `Comment ${i}` });
    const list = await w.services().notifications.list(author);
    expect(list.total).toBe(3);
    expect(await w.services().notifications.markRead(other, { ids: [list.items[0]!._id] })).toEqual({
      modifiedCount: 0,
    });
    expect(await w.services().notifications.markRead(author, { ids: [list.items[0]!._id] })).toEqual({
      modifiedCount: 1,
    });
    expect(await w.services().notifications.unread(author)).toBe(2);
    expect(await w.services().notifications.markRead(author)).toEqual({ modifiedCount: 2 });
    expect(await w.services().notifications.unread(author)).toBe(0);
    expect((await w.services().notifications.list(author, { limit: 2, page: 2 })).items).toHaveLength(1);
  });
});
