import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { newId } from "#worker/services/shared/ids.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeBlog, makeUser } from "../support/factories";
import { fileOf, importAdmin, importHarness } from "../support/imports";
import { PNG } from "../support/pages";

const harness = importHarness();

async function exportSite(admin: Actor) {
  const { body } = await harness.services().siteExport.create(admin);
  const bytes = new Uint8Array(await new Response(body).arrayBuffer());
  return { bytes, files: unzipSync(bytes) };
}

type CommentRow = { id: string; body: string; parent_id: string | null; email: string };
const commentsOf = async (blogId: string) =>
  (
    await env.DB.prepare(
      "select c.id, c.body, c.parent_id, u.email from comments c join users u on u.id = c.user_id where c.blog_id = ? order by c.created_at",
    )
      .bind(blogId)
      .all<CommentRow>()
  ).results;
const followPairs = async () =>
  (
    await env.DB.prepare(
      "select a.email as follower, b.email as writer from follows f join users a on a.id = f.follower_id join users b on b.id = f.writer_id order by 1, 2",
    ).all<{ follower: string; writer: string }>()
  ).results;
const count = async (table: string) =>
  (await env.DB.prepare(`select count(*) as n from ${table}`).first<{ n: number }>())!.n;

describe("the site export keeps threading, tags, SEO fields and follows, and the import restores them", () => {
  it("round-trips them into an empty site, and a second import of the same zip creates nothing twice", async () => {
    const admin = await importAdmin();
    const writer = await makeUser({ name: "Wendy Writer", email: "wendy@example.com" });
    const reader = await makeUser({ name: "Rita Reader", email: "rita@example.com" });
    // Follows Wendy but writes nothing: the import makes no account for her, so her follow cannot come back.
    const lurker = await makeUser({ name: "Lou Lurker", email: "lou@example.com" });
    const socialKey = `social${newId(12).toLowerCase()}.png`;
    await env.IMAGES.put(socialKey, PNG, { httpMetadata: { contentType: "image/png" } });

    const post = await makeBlog(writer, {
      title: "Threads and tags",
      tags: "edge-cache,cloudflare",
      metaDescription: "What search engines show.",
      socialImage: `/images/${socialKey}`,
      dateTime: "2025-03-04T05:06:00.000Z",
    });
    // The search headline and the newsletter's choice for this post (the editor's fields).
    await env.DB.prepare(
      "update blogs set seo_title = ?, newsletter_content = 'full', visibility = 'paid' where id = ?",
    )
      .bind("Threads, tags and the edge", post.id)
      .run();
    await makeBlog(writer, {
      title: "Shared elsewhere",
      socialImage: "https://img.example.com/share.png",
      dateTime: "2025-03-05T05:06:00.000Z",
    });
    const at = Date.parse("2025-03-06T00:00:00Z");
    await env.DB.batch(
      [
        ["top01", null, reader.id, "A top comment", at],
        ["reply1", "top01", writer.id, "The writer answers", at + 1000],
        ["reply2", "top01", reader.id, "The reader answers back", at + 2000],
        ["top02", null, writer.id, "Another top comment", at + 3000],
      ].map(([id, parent, user, body, when]) =>
        env.DB.prepare(
          "insert into comments (id, blog_id, user_id, body, parent_id, created_at) values (?, ?, ?, ?, ?, ?)",
        ).bind(id, post.id, user, body, parent, when),
      ),
    );
    await env.DB.batch(
      [
        [reader.id, writer.id],
        [lurker.id, writer.id],
        [writer.id, reader.id],
      ].map(([a, b]) =>
        env.DB.prepare("insert into follows (follower_id, writer_id, created_at) values (?, ?, ?)").bind(a, b, at),
      ),
    );

    // What the zip holds.
    const { bytes, files } = await exportSite(admin);
    const postFile = strFromU8(files[Object.keys(files).find((n) => n.startsWith("posts/threads-and-tags"))!]!);
    expect(postFile).toMatch(/^tags: "edge-cache,cloudflare"$/m);
    expect(postFile).toMatch(/^meta_description: "What search engines show\."$/m);
    expect(postFile).toContain(`social_image: "../images/${socialKey}"`);
    expect(postFile).toMatch(/^seo_title: "Threads, tags and the edge"$/m);
    expect(postFile).toMatch(/^newsletter_content: "full"$/m);
    expect(postFile).toMatch(/^visibility: "paid"$/m);
    const otherFile = strFromU8(files[Object.keys(files).find((n) => n.startsWith("posts/shared-elsewhere"))!]!);
    expect(otherFile).toMatch(/^social_image: "https:\/\/img\.example\.com\/share\.png"$/m);
    expect(otherFile).toMatch(/^meta_description: ""$/m);
    const exported = JSON.parse(strFromU8(files["comments.json"]!)) as { _id: string; parentId: string | null }[];
    expect(Object.fromEntries(exported.map((c) => [c._id, c.parentId]))).toEqual({
      top01: null,
      reply1: "top01",
      reply2: "top01",
      top02: null,
    });
    const follows = JSON.parse(strFromU8(files["follows.json"]!)) as Record<string, string>[];
    expect(follows.map((f) => `${f.follower} -> ${f.writer}`).sort()).toEqual([
      "lou@example.com -> wendy@example.com",
      "rita@example.com -> wendy@example.com",
      "wendy@example.com -> rita@example.com",
    ]);
    expect(follows[0]).toMatchObject({ createdAt: "2025-03-06T00:00:00.000Z" });
    expect(follows.find((f) => f.follower === "rita@example.com")).toMatchObject({
      followerName: "Rita Reader",
      writerName: "Wendy Writer",
    });
    expect(strFromU8(files["README.md"]!)).toMatch(/follows\.json/);
    expect(strFromU8(files["README.md"]!)).toMatch(/parentId/);

    // An empty site but for the admin who imports.
    await env.DB.batch([
      env.DB.prepare("delete from follows"),
      env.DB.prepare("delete from comments"),
      env.DB.prepare("delete from blogs"),
      env.DB.prepare("delete from users where id != ?").bind(admin.id),
    ]);
    await env.IMAGES.delete(socialKey);

    const first = await harness.importFile(admin, fileOf(bytes, "site.zip"));
    expect(first.view.summary.follows).toBe(3);
    expect(first.view.job.imported).toBe(2);

    const back = await env.DB.prepare(
      "select id, title, tags, meta_description, seo_title, newsletter_content, visibility, social_image from blogs order by title",
    ).all<{
      id: string;
      title: string;
      tags: string;
      meta_description: string;
      seo_title: string;
      newsletter_content: string;
      visibility: string;
      social_image: string;
    }>();
    const [elsewhere, restored] = back.results;
    expect(restored).toMatchObject({
      title: "Threads and tags",
      tags: "edge-cache,cloudflare",
      meta_description: "What search engines show.",
      seo_title: "Threads, tags and the edge",
      newsletter_content: "full",
      // A paid post stays paid (the export keeps its whole body too).
      visibility: "paid",
    });
    // The share image came from the zip into R2 under a key of its own.
    const newKey = /^\/images\/(.+)$/.exec(restored!.social_image)![1]!;
    expect(newKey).not.toBe(socialKey);
    expect(await env.IMAGES.head(newKey)).not.toBeNull();
    expect(elsewhere).toMatchObject({
      title: "Shared elsewhere",
      social_image: "https://img.example.com/share.png",
      seo_title: "",
      newsletter_content: "",
      visibility: "public",
    });
    const tagged = await env.DB.prepare("select tag from blog_tags where blog_id = ? order by tag")
      .bind(restored!.id)
      .all<{ tag: string }>();
    expect(tagged.results.map((r) => r.tag)).toEqual(["cloudflare", "edge-cache"]);

    // Threads: the replies name their top comment's new id.
    const comments = await commentsOf(restored!.id);
    expect(comments.map((c) => c.body)).toEqual([
      "A top comment",
      "The writer answers",
      "The reader answers back",
      "Another top comment",
    ]);
    const [top, reply1, reply2, top2] = comments;
    expect(comments.some((c) => ["top01", "reply1", "reply2", "top02"].includes(c.id))).toBe(false);
    expect(top!.parent_id).toBeNull();
    expect(top2!.parent_id).toBeNull();
    expect(reply1!.parent_id).toBe(top!.id);
    expect(reply2!.parent_id).toBe(top!.id);
    expect([top!.email, reply1!.email]).toEqual(["rita@example.com", "wendy@example.com"]);

    // Follows between accounts that exist after the import; none made up for an account that does not.
    expect(await followPairs()).toEqual([
      { follower: "rita@example.com", writer: "wendy@example.com" },
      { follower: "wendy@example.com", writer: "rita@example.com" },
    ]);
    expect(
      await env.DB.prepare("select count(*) as n from users where email = ?").bind("lou@example.com").first("n"),
    ).toBe(0);
    // Old follows tell nobody anything.
    expect(await env.DB.prepare("select count(*) as n from notifications where kind = 'follow'").first("n")).toBe(0);

    // The same zip again: nothing twice.
    const before = { blogs: await count("blogs"), comments: await count("comments"), users: await count("users") };
    const second = await harness.importFile(admin, fileOf(bytes, "site.zip"));
    expect(second.view.job.imported).toBe(0);
    expect({ blogs: await count("blogs"), comments: await count("comments"), users: await count("users") }).toEqual(
      before,
    );
    expect(await followPairs()).toHaveLength(2);
  }, 60_000);

  it("imported back into the same site, the export brings back only what is gone, under its old id", async () => {
    const admin = await importAdmin();
    const writer = await makeUser({ name: "Stay Writer" });
    const kept = await makeBlog(writer, { title: "Still here", tags: "kept" });
    const gone = await makeBlog(writer, { title: "Deleted by mistake", tags: "restored,edge-cache" });
    const { bytes } = await exportSite(admin);
    await env.DB.prepare("delete from blogs where id = ?").bind(gone.id).run();
    const before = await count("blogs");

    const { view } = await harness.importFile(admin, fileOf(bytes, "site.zip"));
    expect(await count("blogs")).toBe(before + 1);
    const back = await env.DB.prepare("select id, tags from blogs where title = ?")
      .bind("Deleted by mistake")
      .all<{ id: string; tags: string }>();
    // Its old address works again.
    expect(back.results).toEqual([{ id: gone.id, tags: "restored,edge-cache" }]);
    expect(await env.DB.prepare("select count(*) as n from blogs where title = ?").bind("Still here").first("n")).toBe(
      1,
    );
    const still = view.report.items.find((i) => i.blogId === kept.id);
    expect(still).toMatchObject({ state: "skipped", note: { reason: "already on this site" } });
  }, 60_000);

  it("a writer's own import of a site zip restores no follows (they are between other accounts)", async () => {
    const admin = await importAdmin();
    const a = await makeUser({ email: `a-${newId(8).toLowerCase()}@example.com` });
    const b = await makeUser({ email: `b-${newId(8).toLowerCase()}@example.com` });
    await makeBlog(b, { title: "Something to import" });
    await env.DB.prepare("insert into follows (follower_id, writer_id) values (?, ?)").bind(a.id, b.id).run();
    const { bytes } = await exportSite(admin);
    await env.DB.prepare("delete from follows").run();
    const writer = await makeUser();
    const actor: Actor = { id: writer.id, name: writer.name, email: writer.email, role: "user", photoURL: null };
    const { view } = await harness.importFile(actor, fileOf(bytes, "site.zip"), "own");
    expect(view.summary.follows).toBeUndefined();
    expect(await count("follows")).toBe(0);
  }, 60_000);
});
