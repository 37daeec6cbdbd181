import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "#worker/db.ts";
import { createServices } from "#worker/services/index.ts";
import { NOTES_SHOWN } from "#worker/services/comments/reported.ts";
import { newId } from "#worker/services/shared/ids.ts";
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
const reportRows = (commentId: string) =>
  db().select().from(schema.commentReports).where(eq(schema.commentReports.commentId, commentId));
const refusal = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return err as ValidationError;
};

describe("reports with a reason, one per account, withdrawn by their reporter", () => {
  let writer: Actor;
  let ada: Actor;
  let bob: Actor;
  let cy: Actor;
  let admin: Actor;
  beforeAll(async () => {
    writer = actor(await makeUser({ name: "Rep Writer" }));
    ada = actor(await makeUser({ name: "Ada Commenter" }));
    bob = actor(await makeUser({ name: "Bob Reporter" }));
    cy = actor(await makeUser({ name: "Cy Reporter" }));
    admin = actor({ ...(await makeUser({ name: "Rep Admin", role: "admin" })), role: "admin" });
  });

  it("refuses a report without a reason, with an unknown one, or with too long a note, and stores nothing", async () => {
    const blog = await makeBlog(writer);
    const c = await services().comments.create(ada, blog.id, { body: "Needs a reason" });
    const reports = services().commentReports;
    for (const input of [undefined, {}, { reason: "" }, { reason: "rude" }, { reason: ["spam"] }, { note: "x" }]) {
      const err = await refusal(reports.report(bob, c.insertedId, input));
      expect(err.fields.reason).toBe("Choose a reason: spam, abuse or other.");
      expect(err.message).toBe("Choose a reason: spam, abuse or other.");
      expect(err.code).toBe("invalid-report");
    }
    const long = await refusal(reports.report(bob, c.insertedId, { reason: "other", note: "n".repeat(201) }));
    expect(long.fields.note).toBe("Note must be at most 200 characters.");
    expect(await reportRows(c.insertedId)).toEqual([]);
    // Each reason is taken; a note is kept with "other" only.
    for (const reason of ["spam", "abuse", "other"]) {
      expect(await reports.report(bob, c.insertedId, { reason, note: "Words" })).toEqual({ reported: true, reason });
    }
    expect(await reportRows(c.insertedId)).toMatchObject([{ userId: bob.id, reason: "other", note: "Words" }]);
  });

  it("keeps one report per account and comment: a repeat takes the latest reason, never a second row", async () => {
    const blog = await makeBlog(writer);
    const c = await services().comments.create(ada, blog.id, { body: "Reported again and again" });
    const reports = services().commentReports;
    await reports.report(bob, c.insertedId, { reason: "other", note: "First thought" });
    const [first] = await reportRows(c.insertedId);
    await reports.report(bob, c.insertedId, { reason: "spam", note: "ignored with spam" });
    await reports.report(bob, c.insertedId, { reason: "spam" });
    const rows = await reportRows(c.insertedId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: bob.id, reason: "spam", note: null, createdAt: first!.createdAt });
  });

  it("lets the reporter withdraw their own report, leaves the others' alone, and remembers it on the post page", async () => {
    const blog = await makeBlog(writer);
    const c = await services().comments.create(ada, blog.id, { body: "Withdrawn once" });
    const reply = await services().comments.create(bob, blog.id, { body: "A reply", parent_id: c.insertedId });
    const reports = services().commentReports;
    await reports.report(bob, c.insertedId, { reason: "abuse" });
    await reports.report(cy, c.insertedId, { reason: "spam" });
    await reports.report(cy, reply.insertedId, { reason: "other" });
    // The post page knows which comments the reader reported (the confirmation stays; Withdraw is offered).
    expect((await services().reading.post(bob, blog.id)).reported).toEqual([c.insertedId]);
    expect((await services().reading.post(cy, blog.id)).reported.sort()).toEqual(
      [c.insertedId, reply.insertedId].sort(),
    );
    expect((await services().reading.post(null, blog.id)).reported).toEqual([]);

    await expect(reports.withdraw(null, c.insertedId)).rejects.toBeInstanceOf(Unauthorized);
    await expect(reports.withdraw(bob, "zzzzzzzzzzzzzzzzzzzz")).rejects.toBeInstanceOf(NotFound);
    await expect(reports.withdraw(bob, "<script>")).rejects.toBeInstanceOf(NotFound);
    expect(await reports.withdraw(bob, c.insertedId)).toEqual({ withdrawnCount: 1 });
    expect(await reports.withdraw(bob, c.insertedId)).toEqual({ withdrawnCount: 0 });
    expect((await reportRows(c.insertedId)).map((r) => r.userId)).toEqual([cy.id]);
    expect((await services().reading.post(bob, blog.id)).reported).toEqual([]);
    // Withdrawn, it may be reported again.
    await reports.report(bob, c.insertedId, { reason: "spam" });
    expect(await reportRows(c.insertedId)).toHaveLength(2);
  });

  it("shows admins the number of reports per reason and the newest notes, by whom", async () => {
    const blog = await makeBlog(writer, { title: "Reasons for admins" });
    const c = await services().comments.create(ada, blog.id, { body: "Many reasons" });
    const reports = services().commentReports;
    const others = await Promise.all(
      Array.from({ length: NOTES_SHOWN + 1 }, (_, i) => makeUser({ name: `Noter ${i}` })),
    );
    await reports.report(bob, c.insertedId, { reason: "spam" });
    await reports.report(cy, c.insertedId, { reason: "abuse" });
    for (const [i, u] of others.entries()) {
      await reports.report(actor(u), c.insertedId, { reason: "other", note: `Note number ${i}` });
      // Distinct times, so "newest first" is one order.
      await db()
        .update(schema.commentReports)
        .set({ createdAt: Date.now() + i * 1000 })
        .where(and(eq(schema.commentReports.commentId, c.insertedId), eq(schema.commentReports.userId, u.id)));
    }
    const listed = (await reports.reported(admin, { limit: "50" })).items.find((r) => r._id === c.insertedId);
    expect(listed).toMatchObject({ reports: NOTES_SHOWN + 3, reasons: { spam: 1, abuse: 1, other: NOTES_SHOWN + 1 } });
    expect(listed!.notes.map((n) => n.note)).toEqual(
      Array.from({ length: NOTES_SHOWN }, (_, i) => `Note number ${NOTES_SHOWN - i}`),
    );
    expect(listed!.notes[0]!.reporter).toEqual({ _id: others[NOTES_SHOWN]!.id, name: `Noter ${NOTES_SHOWN}` });
    // Reports from before reasons existed read as "other", without a note.
    const old = await services().comments.create(ada, blog.id, { body: "Reported long ago" });
    await env.DB.prepare("insert into comment_reports (comment_id, user_id, created_at) values (?, ?, ?)")
      .bind(old.insertedId, bob.id, Date.now())
      .run();
    const legacy = (await reports.reported(admin, { limit: "50" })).items.find((r) => r._id === old.insertedId);
    expect(legacy).toMatchObject({ reports: 1, reasons: { spam: 0, abuse: 0, other: 1 }, notes: [] });
    await expect(reports.reported(writer)).rejects.toBeInstanceOf(Forbidden);
  });
});

describe("a writer's comments: every comment on their own posts, nobody else's", () => {
  it("lists the comments and replies on the writer's posts, newest first, a page at a time", async () => {
    const wren = actor(await makeUser({ name: "Wren Scope" }));
    const otto = actor(await makeUser({ name: "Otto Scope" }));
    const reader = actor(await makeUser({ name: "Rea Scope" }));
    const mine = await makeBlog(wren, { title: "Wren's post" });
    const another = await makeBlog(wren, { title: "Wren's other post" });
    const theirs = await makeBlog(otto, { title: "Otto's post" });
    const comments = services().comments;
    const top = await comments.create(reader, mine.id, { body: "On Wren's post" });
    await comments.create(otto, mine.id, { body: "Otto replies on Wren's post", parent_id: top.insertedId });
    await comments.create(reader, another.id, { body: "On Wren's other post" });
    await comments.create(wren, theirs.id, { body: "Wren comments on Otto's post" });

    const page = await comments.onMyPosts(wren);
    expect(page.items.map((c) => c.body)).toEqual([
      "On Wren's other post",
      "Otto replies on Wren's post",
      "On Wren's post",
    ]);
    expect(page).toMatchObject({ total: 3, page: 1, pages: 1 });
    expect(page.items[1]).toMatchObject({
      parent_id: top.insertedId,
      author: { _id: otto.id, name: "Otto Scope" },
      blog: { _id: mine.id, title: "Wren's post" },
    });
    // Otto sees the one on his post (Wren's own comment), never those on Wren's posts.
    expect((await comments.onMyPosts(otto)).items.map((c) => c.body)).toEqual(["Wren comments on Otto's post"]);
    expect((await comments.onMyPosts(reader)).items).toEqual([]);

    // The one pagination: page and limit, bounded, a bad one refused.
    const second = await comments.onMyPosts(wren, { page: "2", limit: "2" });
    expect(second).toMatchObject({ total: 3, page: 2, pages: 2, limit: 2 });
    expect(second.items.map((c) => c.body)).toEqual(["On Wren's post"]);
    await expect(comments.onMyPosts(wren, { page: "0" })).rejects.toBeInstanceOf(ValidationError);
    await expect(comments.onMyPosts(null)).rejects.toBeInstanceOf(Unauthorized);

    // Wren may delete what is on her posts, not Otto's comment elsewhere.
    const ottoOwn = await comments.create(reader, theirs.id, { body: "On Otto's post" });
    await expect(comments.remove(wren, ottoOwn.insertedId)).rejects.toBeInstanceOf(Forbidden);
    expect(await comments.remove(wren, top.insertedId)).toEqual({ deletedCount: 1 });
  });
});

describe("the admin menu's numbers", () => {
  it("counts pending reviews and reported comments for admins only", async () => {
    const admin = actor({ ...(await makeUser({ name: "Count Admin", role: "admin" })), role: "admin" });
    const writer = actor(await makeUser({ name: "Count Writer" }));
    const dashboard = services().dashboard;
    const before = await dashboard.menuCounts(admin);
    const review = (status: "pending" | "approved" | "hidden") =>
      db()
        .insert(schema.reviews)
        .values({ id: newId(), name: "Rev", designation: "Nurse", review: "Fine.", image: "/images/x.png", status });
    await review("pending");
    await review("pending");
    await review("approved");
    await review("hidden");
    const blog = await makeBlog(writer);
    const a = await services().comments.create(writer, blog.id, { body: "Count me" });
    const b = await services().comments.create(writer, blog.id, { body: "Count me too" });
    await services().commentReports.report(admin, a.insertedId, { reason: "spam" });
    await services().commentReports.report(actor(await makeUser()), a.insertedId, { reason: "abuse" });
    await services().commentReports.report(admin, b.insertedId, { reason: "other" });
    expect(await dashboard.menuCounts(admin)).toEqual({
      pendingReviews: before.pendingReviews + 2,
      // Comments with a report, not reports.
      reportedComments: before.reportedComments + 2,
    });
    await services().commentReports.keep(admin, b.insertedId);
    expect((await dashboard.menuCounts(admin)).reportedComments).toBe(before.reportedComments + 1);
    await expect(dashboard.menuCounts(writer)).rejects.toBeInstanceOf(Forbidden);
    await expect(dashboard.menuCounts(null)).rejects.toBeInstanceOf(Unauthorized);
  });
});
