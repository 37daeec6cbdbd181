import { env } from "cloudflare:workers";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { db, makeBlog, makeUser } from "../support/factories";
import { getPage, PNG, postForm, withSession } from "../support/pages";

const dec = new TextDecoder();

async function waitForImport(path: string, who: Parameters<typeof getPage>[1]) {
  for (let i = 0; i < 100; i++) {
    const html = await (await getPage(path, who)).text();
    if (html.includes("Import finished")) return html;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the import did not finish");
}

describe("/dashboard/export.zip and the round trip through /dashboard/import", () => {
  it("exports the whole site, and importing the zip into an empty site gives back its posts, pages, images and comments", async () => {
    const admin = await withSession(await makeUser({ role: "admin", name: "Site Admin" }));
    const writer = await makeUser({ name: "Wendy Writer", passwordHash: "pbkdf2$secret-hash" });
    const reader = await makeUser({ name: "Rita Reader" });
    const key = "roundtripimage01.png";
    await env.IMAGES.put(key, PNG, { httpMetadata: { contentType: "image/png" } });
    const body = `## A heading\n\n- one\n- two\n\n[a link](https://example.com)\n\n\`\`\`\ncode()\n\`\`\`\n\n![The picture](/images/${key})`;
    const published = await makeBlog(writer, {
      title: "Round trip",
      blogDetails: body,
      image: `/images/${key}`,
      category: "Travel",
      tags: "edge-cache,cloudflare",
      dateTime: "2025-03-04T05:06:00.000Z",
    });
    await makeBlog(writer, { title: "Still a draft", status: "draft", category: "Science", image: `/images/${key}` });
    await env.DB.prepare("insert into comments (id, blog_id, user_id, body, created_at) values (?, ?, ?, ?, ?)")
      .bind("c1roundtrip", published.id, reader.id, "Lovely trip!", Date.parse("2025-03-05T00:00:00Z"))
      .run();

    // The admin rewrites the privacy page; the terms keep their default text.
    const privacy = "## Our promise\n\nWe keep **nothing** we do not need.";
    expect((await postForm("/dashboard/pages/privacy", admin, { body: privacy })).status).toBe(302);

    // Writers are refused; admins get a zip.
    expect((await getPage("/dashboard/export.zip", await withSession(writer))).status).toBe(403);
    const res = await getPage("/dashboard/export.zip", admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const files = unzipSync(bytes);
    const names = Object.keys(files);
    for (const f of [
      "README.md",
      "edge-blog.json",
      "users.json",
      "profiles.json",
      "comments.json",
      "likes.json",
      "saves.json",
      "reviews.json",
      "authors.json",
      "subscribers.json",
      "settings.json",
    ])
      expect(names).toContain(f);
    expect(names).toContain(`images/${key}`);
    const post = dec.decode(files[names.find((n) => n.startsWith("posts/round-trip"))!]!);
    for (const field of ["title", "date", "status", "category", "tags", "author", "description", "cover"])
      expect(post).toMatch(new RegExp(`^${field}: `, "m"));
    expect(post).toContain(`![The picture](../images/${key})`);
    const privacyFile = dec.decode(files["pages/privacy.md"]!);
    expect(privacyFile).toMatch(/^title: "Privacy Policy"$/m);
    expect(privacyFile).toMatch(/^edited: true$/m);
    expect(privacyFile).toContain(privacy);
    expect(dec.decode(files["pages/terms.md"]!)).toMatch(/^edited: false$/m);
    const users = dec.decode(files["users.json"]!);
    expect(users).toContain(writer.email);
    expect(users).not.toContain("secret-hash");
    expect(users).not.toMatch(/password/i);

    // An empty site: no posts, comments, images or accounts but the admin's.
    await env.DB.batch([
      env.DB.prepare("delete from site_pages"),
      env.DB.prepare("delete from comments"),
      env.DB.prepare("delete from blogs"),
      env.DB.prepare("delete from users where id != ?").bind(admin.id),
    ]);
    await env.IMAGES.delete(key);
    // A reader's visit keeps the empty site's default privacy text in the shared cache.
    expect(await (await getPage("/privacy", null)).text()).not.toContain("Our promise");

    const upload = await postForm("/dashboard/import?upload=site", admin, {}, { file: new File([bytes], "site.zip") });
    expect(upload.status).toBe(302);
    const jobPath = upload.headers.get("location")!;
    expect(await (await getPage(jobPath, admin)).text()).toContain("Start import");
    const jobId = new URL(jobPath, "https://blog.test").searchParams.get("job")!;
    const start = await postForm("/dashboard/import", admin, {
      intent: "confirm",
      job: jobId,
      default_category: "Lifestyle",
    });
    expect(start.status).toBe(302);
    // The real import queue runs it in the background; the page reports the end.
    const report = await waitForImport(jobPath, admin);
    // Two posts and the one edited page, each counted as what it is (issue 47).
    expect(report).toContain("2 of 2 posts imported · 1 site page restored");
    expect(report).toMatch(/href="\/privacy"[^>]*>Privacy Policy<\/a>/);
    // The page is back, and its shared copy shows the restored text.
    const page = await (await getPage("/privacy", null)).text();
    expect(page).toContain("Our promise");
    expect(page).toContain("<strong>nothing</strong>");
    const pages = await env.DB.prepare("select slug from site_pages").all<{ slug: string }>();
    expect(pages.results.map((r) => r.slug)).toEqual(["privacy"]);

    const blogs = await db().query.blogs.findMany({ orderBy: (b, { asc }) => asc(b.title) });
    expect(blogs.map((b) => [b.title, b.status, b.category, b.authorName])).toEqual([
      ["Round trip", "published", "Travel", "Wendy Writer"],
      ["Still a draft", "draft", "Science", "Wendy Writer"],
    ]);
    const back = blogs[0]!;
    expect(back.dateTime).toBe("2025-03-04T05:06:00.000Z");
    // Its tags come back too, on the post and on the tag pages' rows.
    expect(back.tags).toBe("edge-cache,cloudflare");
    const tagged = await env.DB.prepare("select tag from blog_tags where blog_id = ? order by tag")
      .bind(back.id)
      .all<{ tag: string }>();
    expect(tagged.results.map((r) => r.tag)).toEqual(["cloudflare", "edge-cache"]);
    const newKey = /!\[The picture\]\(\/images\/([^)]+)\)/.exec(back.blogDetails)![1]!;
    expect(back.blogDetails).toBe(body.replace(key, newKey));
    expect(back.image.startsWith("/images/")).toBe(true);
    expect(await env.IMAGES.head(newKey)).not.toBeNull();
    const comments = await env.DB.prepare(
      "select c.body, u.email from comments c join users u on u.id = c.user_id where c.blog_id = ?",
    )
      .bind(back.id)
      .all<{ body: string; email: string }>();
    expect(comments.results).toEqual([{ body: "Lovely trip!", email: reader.email }]);
    // The writer's account comes back by email, with no password until they reset one.
    const wendy = await db().query.users.findFirst({ where: (u, { eq }) => eq(u.email, writer.email) });
    expect(wendy?.passwordHash).toBeNull();
  }, 60_000);

  it("a writer cannot open the site import or someone else's import", async () => {
    const writer = await withSession(await makeUser());
    const res = await postForm("/dashboard/import?upload=site", writer, {}, { file: new File(["<rss/>"], "x.xml") });
    expect(res.status).toBe(403);
    expect((await getPage("/dashboard/import?job=nope", writer)).status).toBe(404);
    expect((await getPage("/dashboard/export", writer)).status).toBe(403);
  });
});
