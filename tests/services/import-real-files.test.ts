import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { IMPORT_ERRORS } from "#worker/services/import/archive.ts";
import { parseExport } from "#worker/services/import/parse.ts";
import { asUser, makeUser } from "../support/factories";
import { call } from "../support/http";
import { fileOf, importedBlogs, importHarness, importAdmin, stubImageFetchEachTest } from "../support/imports";
// Real WXR files that WordPress's own importer tests itself on (github.com/WordPress/wordpress-importer,
// phpunit/data; origins in tests/fixtures/imports/README.md): WXR 1.0, 1.1 and 1.2, CDATA and UTF-8 edges.
import wxr10 from "../fixtures/imports/wordpress/valid-wxr-1.0.xml?raw";
import smallExport from "../fixtures/imports/wordpress/small-export.xml?raw";
import utf8 from "../fixtures/imports/wordpress/wxr-utf-8-challenges.xml?raw";
import crazyCdata from "../fixtures/imports/wordpress/crazy-cdata-escaped.xml?raw";
import malformed from "../fixtures/imports/wordpress/malformed-simple.xml?raw";
import themeUnitTest from "../fixtures/imports/wordpress/themeunittestdata.wordpress.xml?raw";
// Squarespace exports WXR too: the samples of Ghost's migrators (TryGhost/migrate mg-squarespace-xml, mg-wp-xml).
import squarespace from "../fixtures/imports/squarespace/sample.xml?raw";
import captions from "../fixtures/imports/wordpress/feature-image-captions.xml?raw";

const fetches = stubImageFetchEachTest();
beforeEach(async () => {
  // Several of these files are exports of the same "localhost" site: each test imports its file afresh.
  await env.DB.prepare("delete from imported_sources where source_key like 'wp:%'").run();
});

describe("WordPress exports from WordPress's own importer tests", () => {
  it("WXR 1.0 (WordPress 3.0): three posts, three pages skipped, the 1.0 tags and de-duplicated categories", async () => {
    const { view, jobId } = await importHarness().importFile(await importAdmin(), fileOf(wxr10, "valid-wxr-1.0.xml"));
    expect(view.job.status).toBe("done");
    expect(view.job.platform).toBe("wordpress");
    expect(view.summary.posts).toBe(3);
    expect(view.summary.drafts).toBe(0);
    expect(view.summary.pages).toBe(3);
    expect(view.job.imported).toBe(3);
    expect(view.job.failed).toBe(0);
    const rows = await importedBlogs(jobId);
    expect(rows.map((r) => [r.title, r.status, r.date_time])).toEqual([
      ["Hello world!", "published", "2010-10-20T14:08:20.000Z"],
      ["Alpha post", "published", "2010-10-20T14:09:37.000Z"],
      ["Child post", "published", "2010-10-20T14:10:09.000Z"],
    ]);
    // WXR 1.0 writes tags as domain="tag" (later versions "post_tag"), and every term twice.
    expect(rows.map((r) => r.tags)).toEqual(["", "news,roar,alpha", "chicken,face,child"]);
    expect(rows.every((r) => r.category === "Lifestyle")).toBe(true);
    expect(rows[0]!.blog_details).toBe(
      "Welcome to WordPress. This is your first post. Edit or delete it, then start blogging!",
    );
    // Its one comment names no email address: it has nobody to belong to here, and the report says so.
    expect(rows.reduce((n, r) => n + r.comments, 0)).toBe(0);
    expect(view.report.items[0]!.note).toMatchObject({ comments: 0, commentsSkipped: 1 });
  });

  it("WXR 1.1 (WordPress 3.1): posts by three authors, a private post as a draft, many categories", async () => {
    const { view, jobId } = await importHarness().importFile(
      await importAdmin(),
      fileOf(smallExport, "small-export.xml"),
    );
    expect(view.summary).toMatchObject({ posts: 6, drafts: 1, pages: 5 });
    expect(view.job.imported).toBe(6);
    const rows = await importedBlogs(jobId);
    expect(rows.map((r) => [r.title, r.status, r.date_time, r.email])).toEqual([
      ["Hello world!", "published", "2011-01-18T07:40:14.000Z", "author@example.org"],
      ["Private Post", "draft", "2011-01-18T07:47:19.000Z", "local@host.null"],
      ["Foo-child", "published", "2011-01-18T07:48:07.000Z", "editor@example.org"],
      ["Top-level Foo", "published", "2011-01-18T07:48:32.000Z", "local@host.null"],
      ["Non-standard post format", "published", "2011-01-18T07:48:52.000Z", "local@host.null"],
      ["Many Categories", "published", "2011-01-18T07:55:01.000Z", "local@host.null"],
    ]);
    expect(rows[1]!.tags).toBe("Tag1,Tag2,Tag3");
    expect(rows[2]!.tags).toBe("Foo");
    // The post format (domain="post_format") is not a tag; 27 categories keep five tags and report the rest.
    expect(rows[4]!.tags).toBe("");
    expect(rows[5]!.tags).toBe("alpha,Bar,BETA,CHI,dElta");
    // The 22 others are reported: five are taken. The Chinese one is among them only because it comes last
    // (its script is no reason to drop it any more: tests/services/import-tags-pages.test.ts).
    expect(view.report.items[5]!.note.tagsDropped).toHaveLength(22);
    expect(view.report.items[5]!.note.tagsDropped).toContain("远征手记");
    expect(rows[2]!.blog_details).toBe("Post associated with the Foo category that is a child of Bar.");
  });

  it("WXR 1.2 (WordPress 6.5) in CDATA with emoji, bidi marks and zalgo text, kept character for character", async () => {
    const { view, jobId } = await importHarness().importFile(
      await importAdmin(),
      fileOf(utf8, "wxr-utf-8-challenges.xml"),
    );
    expect(view.job.imported).toBe(1);
    const [row] = await importedBlogs(jobId);
    const cdata = (tag: string) => new RegExp(`<${tag}><!\\[CDATA\\[([\\s\\S]*?)\\]\\]></${tag}>`).exec(utf8)![1]!;
    expect(row!.title).toBe(cdata("title"));
    expect(row!.author_name).toBe(cdata("wp:author_display_name"));
    expect(row!.date_time).toBe("2024-06-05T16:04:48.000Z");
    expect(row!.status).toBe("published");
    expect(row!.blog_details).toContain("](https://w.org)");
    expect(row!.blog_details).toContain("🚀🌟💫");
    expect(row!.blog_details).toContain("السلام عليكم");
    expect(row!.blog_details).not.toMatch(/&#x?[0-9a-f]+;|&amp;/i);
  });

  it("CDATA that holds ']]>' (split into two sections, as WordPress writes it) reads as one text", async () => {
    const parsed = parseExport(new TextEncoder().encode(crazyCdata));
    expect(parsed.posts).toHaveLength(1);
    expect(parsed.site).toBe("wp.dev");
    // What a browser shows of "Content with nested <![CDATA[ tags ]]> :)" (the inner CDATA is markup).
    expect(parsed.posts[0]!.markdown).toMatch(/^Content with nested\s+:\)$/);
    const { view } = await importHarness().importFile(
      await importAdmin(),
      fileOf(crazyCdata, "crazy-cdata-escaped.xml"),
    );
    expect(view.job.imported).toBe(1);
    expect(view.report.items[0]!.title).toBe("Hello world!");
  });

  it("titles read as text: numeric references outside CDATA decoded (the_title_rss), markup in CDATA dropped", () => {
    const parsed = parseExport(new TextEncoder().encode(themeUnitTest));
    const special = parsed.posts.find((p) => p.title.startsWith("Markup: Title With Special Characters"));
    expect(special?.title).toBe("Markup: Title With Special Characters ~`!@#$%^&*()-_=+{}[]/\\;:'\"?,.>");
    expect(parsed.posts.filter((p) => /&#\d+;|&#x[0-9a-f]+;|&amp;/i.test(p.title))).toEqual([]);
    // WordPress shows titles as HTML: "Markup: Title <em>With</em> <b>Mark<sup>up</sup></b>" reads as its words.
    expect(parsed.posts.map((p) => p.title)).toContain("Markup: Title With Markup");
  });

  it("shortcodes that hold content (caption, gallery) become their images and words, captions stay", () => {
    const parsed = parseExport(new TextEncoder().encode(themeUnitTest));
    // ("[caption](…)" is a link whose words are "caption": that one stays.)
    const post = (title: string) => parsed.posts.find((p) => p.title === title)!.markdown;
    expect(
      parsed.posts.filter((p) => /\\?\[\/?(caption|gallery)\b(?!\]\()/.test(p.markdown)).map((p) => p.title),
    ).toEqual([]);
    const caption = post("Post Format: Image (Caption)");
    expect(caption).toContain(
      "![Bell on Wharf](https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg?w=604)",
    );
    expect(caption).toContain("Bell on wharf in San Francisco");
    // A block editor image's <figcaption> stays under its image too.
    expect(post("Block: Image")).toMatch(
      /!\[Image Alignment 1200x400\]\([^)]+\)\n\n\*Massive image comment for your eyeballs\.\*/,
    );
    // [gallery] shows the images attached to its post (the file's own attachment items say which).
    const items = themeUnitTest.split("<item>");
    const attached = items.filter(
      (i) => /<wp:post_type>(<!\[CDATA\[)?attachment/.test(i) && /<wp:post_parent>555</.test(i),
    );
    const urls = attached.map((i) => /<wp:attachment_url>(?:<!\[CDATA\[)?([^<\]]+)/.exec(i)![1]!);
    expect(urls.length).toBeGreaterThan(10);
    for (const url of urls) expect(post("Post Format: Gallery")).toContain(`](${url})`);
    // [gallery ids="770,771"] shows those two.
    const byId = (id: string) =>
      /<wp:attachment_url>(?:<!\[CDATA\[)?([^<\]]+)/.exec(items.find((i) => i.includes(`<wp:post_id>${id}<`))!)![1]!;
    expect(post("Block category: Widgets")).toContain(`](${byId("770")})`);
    expect(post("Block category: Widgets")).toContain(`](${byId("771")})`);
  });

  it("Squarespace's WXR: entities in titles, lazy-loaded images, a table, a list, untitled and draft posts", async () => {
    const actor = await importAdmin();
    const { view, jobId } = await importHarness().importFile(actor, fileOf(squarespace, "squarespace.xml"));
    expect(view.summary).toMatchObject({ posts: 3, drafts: 1, pages: 2 });
    expect(view.job.imported).toBe(3);
    expect(view.job.failed).toBe(0);
    const rows = await importedBlogs(jobId);
    expect(rows.map((r) => [r.title, r.status, r.date_time])).toEqual([
      ["Draft & Post & More—More", "draft", "2013-11-02T23:02:32.000Z"],
      ["Basic Post", "published", "2013-06-07T03:00:44.000Z"],
      ["(untitled)", "published", "2023-04-05T14:42:38.000Z"],
    ]);
    const basic = rows[1]!;
    expect([basic.author_name, basic.email]).toEqual(["Hermione Granger", "hermione@example.com"]);
    expect(rows[0]!.email).toBe(actor.email);
    expect(basic.tags).toBe("Has Images,Programming,Company News");
    // The inline image is lazy-loaded (data-src, no src): it is fetched and shown all the same.
    expect(fetches.urls.some((u) => u.startsWith("https://images.unsplash.com/photo-1601275225755"))).toBe(true);
    expect(fetches.urls.some((u) => u.startsWith("https://images.unsplash.com/photo-1601276861758"))).toBe(true);
    // Inside Squarespace's linked image block: a linked image, no stray brackets.
    expect(basic.blog_details).toMatch(
      /^\[!\[MAKINGIT\\_Unfold[^\]]*\]\(\/images\/[^)]+\)\]\(https:\/\/anothersite\.co\.uk\)$/m,
    );
    expect(basic.blog_details).toContain("| Width | Height |\n| --- | --- |\n| 20 | 15 |\n| 40 | 30 |");
    expect(basic.blog_details).toMatch(/^- {1,3}Lobortis mauris dapibus in$/m);
    expect(basic.blog_details).toContain("[dapibus](https://anothersite.co.uk)");
    expect(basic.blog_details).toContain("**Sed vulputate consectetur tortor:**");
  });

  it("a creator that is an email address, with no <wp:author> for it, is that author", () => {
    const [post] = parseExport(new TextEncoder().encode(captions)).posts;
    expect(post!.author).toEqual({ name: "hermione", email: "hermione@example.com" });
  });

  it("a file cut short is refused with a 400 naming the file's fault, and nothing is written", async () => {
    const u = await makeUser({ role: "admin", email: `admin-${crypto.randomUUID()}@example.com` });
    const jobs = async () => (await env.DB.prepare("select count(*) as n from import_jobs").first<{ n: number }>())!.n;
    const before = await jobs();
    const form = new FormData();
    form.set("file", fileOf(malformed, "malformed-simple.xml"));
    const res = await call("/api/imports", { method: "POST", body: form, headers: await asUser(u) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(IMPORT_ERRORS.notXml);
    expect(await jobs()).toBe(before);
  });
});
