import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DomainEvents, EventName, Subscriptions } from "#worker/events/index.ts";
import { createBlogService } from "#worker/services/blogs/service.ts";
import { createCommentService } from "#worker/services/comments/service.ts";
import { createFollowService } from "#worker/services/follows.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { createLikeService } from "#worker/services/likes.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeBlog, makeUser } from "../support/factories";
import { tag, testKernel } from "../support/kernel";
import { newsletterPost } from "../support/newsletter";

/**
 * One kernel per request, and writes that emit their own events (docs/decisions/057): each service here is
 * made straight from a test kernel, with no composition root around it, and what it emits is heard on the
 * kernel's hub.
 */

const EVENTS: EventName[] = [
  "post.published",
  "post.changed",
  "comment.created",
  "reply.private",
  "post.liked",
  "user.followed",
  "member.paid",
];

/** Every event emitted on the kernel's hub, in order. */
function heard(k: Kernel) {
  const seen: { name: EventName; payload: DomainEvents[EventName] }[] = [];
  k.events.subscribe(
    Object.fromEntries(
      EVENTS.map((name) => [name, (payload: never) => void seen.push({ name, payload })]),
    ) as Subscriptions,
  );
  return seen;
}

const noCleanup = { imageCleanup: { release: async () => {} } };
const actorOf = (u: { id: string; name: string; email: string }): Actor => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: "user",
  photoURL: null,
});

/** A D1 that keeps the SQL of every statement prepared on it. */
function recordingD1() {
  const sql: string[] = [];
  const db = new Proxy(env.DB, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "prepare") return (query: string) => (sql.push(query), target.prepare(query));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, sql };
}

describe("a write emits its own event, and decides there whether it is true", () => {
  it("a verified writer's published post: post.published, then post.changed; a draft: post.changed only", async () => {
    const k = testKernel();
    const seen = heard(k);
    const blogs = createBlogService(k, noCleanup);
    const writer = actorOf(await makeUser());
    const { insertedId } = await blogs.create(writer, newsletterPost());
    expect(seen).toEqual([
      { name: "post.published", payload: { blogId: insertedId } },
      { name: "post.changed", payload: { blogId: insertedId } },
    ]);
    seen.length = 0;
    const draft = await blogs.create(writer, { title: `Draft ${tag()}`, status: "draft" });
    expect(seen).toEqual([{ name: "post.changed", payload: { blogId: draft.insertedId } }]);
  });

  it("an unverified writer's post emits nothing: it stays on the site (the emitter's rule, not the root's)", async () => {
    const k = testKernel();
    const seen = heard(k);
    const writer = actorOf(await makeUser({ emailVerifiedAt: null }));
    const created = await createBlogService(k, noCleanup).create(writer, newsletterPost());
    expect(created.notice).toBeTruthy();
    expect(seen).toEqual([]);
  });

  it("an edit that publishes a draft emits post.published; a deleted post emits post.changed", async () => {
    const k = testKernel();
    const seen = heard(k);
    const blogs = createBlogService(k, noCleanup);
    const writer = actorOf(await makeUser());
    const { insertedId } = await blogs.create(writer, newsletterPost({ status: "draft" }));
    seen.length = 0;
    await blogs.update(writer, insertedId, { status: "published" });
    expect(seen.map((e) => e.name)).toEqual(["post.published", "post.changed"]);
    seen.length = 0;
    await blogs.remove(writer, insertedId);
    expect(seen).toEqual([{ name: "post.changed", payload: { blogId: insertedId } }]);
  });

  it("a like, a comment and a follow emit post.liked, comment.created and user.followed", async () => {
    const k = testKernel();
    const seen = heard(k);
    const writer = await makeUser();
    const reader = actorOf(await makeUser());
    const blog = await makeBlog(writer);
    await createLikeService(k).toggle(reader, blog.id);
    const comment = await createCommentService(k).create(reader, blog.id, { body: "Well put." });
    await createFollowService(k).follow(reader, writer.id);
    expect(seen).toEqual([
      { name: "post.liked", payload: { actor: reader, blogId: blog.id } },
      { name: "comment.created", payload: comment },
      { name: "user.followed", payload: { actor: reader, writerId: writer.id } },
    ]);
  });
});

describe("one use case, one read", () => {
  const loads = (sql: string[]) => sql.filter((s) => /from "blogs" "blogs" where "blogs"\."id" = \?/.test(s)).length;
  const slugChecks = (sql: string[]) => sql.filter((s) => /from "blogs" where \("blogs"\."slug" = \?/.test(s)).length;

  it("an edit of a post's slug loads the post once and checks the slug once", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const rec = recordingD1();
    const blogs = createBlogService(testKernel(rec.db), noCleanup);
    expect(await blogs.update(actorOf(writer), blog.id, { slug: `fresh-${tag()}` })).toEqual({ modifiedCount: 1 });
    expect({ loads: loads(rec.sql), slugChecks: slugChecks(rec.sql) }).toEqual({ loads: 1, slugChecks: 1 });
  });

  it("the edit form's use case: the post read once for the form and the save (blogs.edit)", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer);
    const rec = recordingD1();
    const edit = await createBlogService(testKernel(rec.db), noCleanup).edit(actorOf(writer), blog.id);
    expect(edit.blog._id).toBe(blog.id);
    expect(await edit.save({ slug: `form-${tag()}` })).toEqual({ modifiedCount: 1 });
    expect({ loads: loads(rec.sql), slugChecks: slugChecks(rec.sql) }).toEqual({ loads: 1, slugChecks: 1 });
  });

  it("a restore that brings an old slug back checks it once", async () => {
    const writer = await makeUser();
    const blog = await makeBlog(writer, { slug: `old-${tag()}` });
    const blogs = createBlogService(testKernel(), noCleanup);
    await blogs.update(actorOf(writer), blog.id, { slug: `new-${tag()}` });
    const { revisions } = await blogs.revisions(actorOf(writer), blog.id);
    const rec = recordingD1();
    const again = createBlogService(testKernel(rec.db), noCleanup);
    expect(await again.restoreRevision(actorOf(writer), blog.id, revisions[0]!._id)).toEqual({ modifiedCount: 1 });
    expect({ loads: loads(rec.sql), slugChecks: slugChecks(rec.sql) }).toEqual({ loads: 1, slugChecks: 1 });
  });
});
