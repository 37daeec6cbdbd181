import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { newId } from "#worker/services/shared/ids.ts";
import { asUser, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";
import { PNG } from "../support/pages";

describe("GET /api/auth/export keeps tags, SEO fields, reply threading and follows", () => {
  it("writes them into the account's zip, naming other people by id and name only", async () => {
    const me = await makeUser({ name: "Mia Mine" });
    const writer = await makeUser({ name: "Will Writer" });
    const fan = await makeUser({ name: "Fay Fan" });
    const socialKey = `share${newId(12).toLowerCase()}.png`;
    await env.IMAGES.put(socialKey, PNG, { httpMetadata: { contentType: "image/png" } });
    const mine = await makeBlog(me, {
      title: "Tagged and described",
      tags: "edge-cache,cloudflare",
      metaDescription: "What search engines show.",
      socialImage: `/images/${socialKey}`,
      seoTitle: "Search headline",
      slug: "my-own-link",
      newsletterContent: "full",
      emailSubscribers: false,
    });
    const theirs = await makeBlog(writer, { title: "Their post" });
    await env.DB.batch([
      env.DB.prepare(
        "insert into comments (id, blog_id, user_id, body) values ('topcomment1', ?, ?, 'A question')",
      ).bind(theirs.id, writer.id),
      env.DB.prepare(
        "insert into comments (id, blog_id, user_id, body, parent_id) values ('myreply0001', ?, ?, 'My answer', 'topcomment1')",
      ).bind(theirs.id, me.id),
      env.DB.prepare(
        "insert into comments (id, blog_id, user_id, body) values ('mytopcomment', ?, ?, 'My own top comment')",
      ).bind(theirs.id, me.id),
      env.DB.prepare("insert into follows (follower_id, writer_id, created_at) values (?, ?, ?)").bind(
        me.id,
        writer.id,
        Date.parse("2025-01-02T03:04:05Z"),
      ),
      env.DB.prepare("insert into follows (follower_id, writer_id) values (?, ?)").bind(fan.id, me.id),
    ]);

    const res = await call("/api/auth/export", { headers: await asUser(me) });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));

    const post = strFromU8(files[Object.keys(files).find((n) => n.includes("tagged-and-described"))!]!);
    expect(post).toContain(`id: "${mine.id}"`);
    expect(post).toMatch(/^tags: "edge-cache,cloudflare"$/m);
    expect(post).toMatch(/^meta_description: "What search engines show\."$/m);
    expect(post).toContain(`social_image: "../images/${socialKey}"`);
    // Every field of the post form goes into the export (issue 47).
    expect(post).toMatch(/^seo_title: "Search headline"$/m);
    expect(post).toMatch(/^slug: "my-own-link"$/m);
    expect(post).toMatch(/^newsletter_content: "full"$/m);
    expect(post).toMatch(/^email_subscribers: 0$/m);
    // The share image travels with the post.
    expect(files[`images/${socialKey}`]).toEqual(PNG);

    const comments = JSON.parse(strFromU8(files["comments.json"]!)) as { _id: string; parentId: string | null }[];
    expect(Object.fromEntries(comments.map((c) => [c._id, c.parentId]))).toEqual({
      myreply0001: "topcomment1",
      mytopcomment: null,
    });

    const follows = JSON.parse(strFromU8(files["follows.json"]!));
    expect(follows).toEqual({
      following: [{ writerId: writer.id, name: "Will Writer", followedAt: "2025-01-02T03:04:05.000Z" }],
      followers: [{ followerId: fan.id, name: "Fay Fan", followedAt: expect.any(String) }],
    });
    expect(strFromU8(files["follows.json"]!)).not.toContain(fan.email);
    expect(strFromU8(files["follows.json"]!)).not.toContain(writer.email);
    const readme = strFromU8(files["README.txt"]!);
    expect(readme).toContain("follows.json");
    expect(readme).toContain("parentId");
    expect(readme).toContain("meta_description");
  });
});
