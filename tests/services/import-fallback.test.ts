import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseGhost } from "#worker/services/import/ghost.ts";
import { htmlToMarkdown } from "#worker/services/import/html.ts";
import { parseMedium } from "#worker/services/import/medium.ts";
import { parseWordPress } from "#worker/services/import/wordpress.ts";
import { IMPORT_ERRORS } from "#worker/services/import/archive.ts";
import { DomainError } from "#worker/services/shared/errors.ts";
import { PNG } from "../support/pages";
import {
  fileOf,
  importAdmin,
  importedBlogs,
  importHarness,
  stubImageFetch,
  stubImageFetchEachTest,
} from "../support/imports";

const fetches = stubImageFetchEachTest();

const enc = (t: string) => new TextEncoder().encode(t);

/** An SVG element named with two colons: domino parses it, then refuses to clone it (turndown clones). */
const BREAKS_THE_CONVERTER = "<svg><a:b:c>label</a:b:c></svg>";

const comment = (name: string, email: string, text: string) =>
  `<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_author><![CDATA[${name}]]></wp:comment_author>` +
  `<wp:comment_author_email>${email}</wp:comment_author_email><wp:comment_date_gmt>2019-03-04 10:00:00</wp:comment_date_gmt>` +
  `<wp:comment_content><![CDATA[${text}]]></wp:comment_content><wp:comment_approved>1</wp:comment_approved>` +
  `<wp:comment_type></wp:comment_type></wp:comment>`;

const item = (id: number, title: string, html: string, extra = "") =>
  `<item><title>${title}</title><dc:creator>ada</dc:creator><content:encoded><![CDATA[${html}]]></content:encoded>` +
  `<wp:post_id>${id}</wp:post_id><wp:post_date_gmt>2019-03-0${id} 10:00:00</wp:post_date_gmt><wp:status>publish</wp:status>` +
  `<wp:post_type>post</wp:post_type>${extra}</item>`;

const wxr = (site: string, items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" ` +
  `xmlns:wp="http://wordpress.org/export/1.2/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>x</title>` +
  `<wp:base_site_url>https://${site}</wp:base_site_url>` +
  `<wp:author><wp:author_login>ada</wp:author_login><wp:author_email>ada-${site}@example.com</wp:author_email>` +
  `<wp:author_display_name><![CDATA[Ada Writer]]></wp:author_display_name></wp:author>` +
  `<item><title>cover.png</title><wp:post_id>90</wp:post_id><wp:post_type>attachment</wp:post_type>` +
  `<wp:attachment_url>https://${site}/cover.png</wp:attachment_url></item>` +
  `${items.join("")}</channel></rss>`;

describe("a post whose body cannot be converted keeps everything but its formatting", () => {
  it("WordPress: its status, date, tags, categories, author, cover and comments stay; only the body is plain text", async () => {
    const site = `fb-${crypto.randomUUID().slice(0, 8)}.example`;
    const extra =
      `<category domain="category" nicename="travel"><![CDATA[Travel]]></category>` +
      `<category domain="post_tag" nicename="alps"><![CDATA[alps]]></category>` +
      `<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>90</wp:meta_value></wp:postmeta>` +
      comment("Reader", `reader-${site}@example.com`, "Lovely <b>trip</b>.");
    const file = wxr(site, [
      item(1, "Fine", "<p>Fine words.</p>"),
      item(2, "Broken drawing", `<p>Words around a drawing.</p>${BREAKS_THE_CONVERTER}<p>The last words.</p>`, extra),
    ]);
    const parsed = parseWordPress(file).posts[1]!;
    expect(parsed).toMatchObject({
      title: "Broken drawing",
      status: "published",
      date: "2019-03-02T10:00:00.000Z",
      categories: ["Travel"],
      tags: ["alps"],
      author: { name: "Ada Writer", email: `ada-${site}@example.com` },
      cover: `https://${site}/cover.png`,
      comments: [expect.objectContaining({ authorName: "Reader", body: "Lovely **trip**." })],
    });
    expect(parsed.warnings).toEqual([expect.stringContaining("imported as plain text")]);

    const admin = await importAdmin();
    const { jobId, view } = await importHarness().importFile(admin, fileOf(file, "site.xml"));
    expect(view.job.imported).toBe(2);
    const post = (await importedBlogs(jobId)).find((p) => p.title === "Broken drawing")!;
    expect(post).toMatchObject({
      status: "published",
      date_time: "2019-03-02T10:00:00.000Z",
      category: "Travel",
      tags: "alps",
      author_name: "Ada Writer",
      comments: 1,
    });
    expect(post.image).toMatch(/^\/images\/(?!import-placeholder)/);
    expect(post.blog_details).toMatch(/^Words around a drawing\.[\s\S]*The last words\.$/);
  });

  it("Ghost: the post keeps its publication date (not the time of the import), status, tags and author", () => {
    const ghost = {
      db: [
        {
          meta: { version: "6.10.0" },
          data: {
            posts: [
              {
                id: "p1",
                uuid: "u1",
                title: "Un dessin cassé",
                status: "published",
                published_at: "2021-02-03T04:05:06.000Z",
                html: `<p>Des mots.</p>${BREAKS_THE_CONVERTER}<p>La fin.</p>`,
                feature_image: "https://ghost.example/content/images/cover.jpg",
              },
            ],
            tags: [{ id: "t1", name: "Voyages" }],
            posts_tags: [{ post_id: "p1", tag_id: "t1" }],
            users: [{ id: "a1", name: "Zoé", email: "zoe@example.com" }],
            posts_authors: [{ post_id: "p1", author_id: "a1" }],
          },
        },
      ],
    };
    const [post] = parseGhost(ghost).posts;
    expect(post).toMatchObject({
      status: "published",
      date: "2021-02-03T04:05:06.000Z",
      tags: ["Voyages"],
      author: { name: "Zoé", email: "zoe@example.com" },
      cover: "https://ghost.example/content/images/cover.jpg",
    });
    expect(post!.markdown).toBe("Des mots.\n\nlabel\n\nLa fin.");
  });

  it("Medium: the post keeps its publication date, status, tags and author", () => {
    const html =
      `<!DOCTYPE html><html><head><title>A drawing</title></head><body><article class="h-entry"><header><h1 class="p-name">A drawing</h1></header>` +
      `<section data-field="body" class="e-content"><h3 class="graf graf--title">A drawing</h3><p>First words.</p>${BREAKS_THE_CONVERTER}<p>Last words.</p></section>` +
      `<footer><p class="p-tags">Tagged in <a href="https://medium.com/tag/art" class="p-tag">Art</a></p>` +
      `<p>By <a href="https://medium.com/@me" class="p-author h-card">Mel Medium</a> on <time class="dt-published" datetime="2017-05-06T07:08:09.000Z">May 6</time></p>` +
      `<p><a href="https://medium.com/@me/a-drawing-1" class="p-canonical">Canonical link</a></p></footer></article></body></html>`;
    const [post] = parseMedium(new Map([["posts/2017-05-06_A-drawing-1.html", enc(html)]])).posts;
    expect(post).toMatchObject({
      title: "A drawing",
      status: "published",
      date: "2017-05-06T07:08:09.000Z",
      tags: ["Art"],
      author: { name: "Mel Medium", email: null },
    });
    expect(post!.warnings).toEqual([expect.stringContaining("imported as plain text")]);
    expect(post!.markdown).toBe("First words.\n\nlabel\n\nLast words.");
  });
});

describe("one deep post is that post's problem, not the file's", () => {
  const generics = `<pre><code>${"var xs = new List<int>();\n".repeat(300)}From: Ev <et@everet.org></code></pre>`;

  it("tag-like text in code (List<int>, <et@everet.org>) is text, not nesting: the post converts as it is", async () => {
    const site = `deep-${crypto.randomUUID().slice(0, 8)}.example`;
    const file = wxr(site, [item(1, "Before", "<p>Before.</p>"), item(2, "Generics", generics)]);
    const { jobId, view } = await importHarness().importFile(await importAdmin(), fileOf(file, "g.xml"));
    expect(view.job.imported).toBe(2);
    const post = (await importedBlogs(jobId))[1]!;
    expect(post.blog_details).toMatch(/^```\nvar xs = new List<int>\(\);\n/);
    expect(post.blog_details).toContain("From: Ev <et@everet.org>\n```");
    expect(view.summary.problems).toEqual([]);
  });

  it("a post nested past the cap comes in as plain text, named in a warning; the others convert", async () => {
    const site = `deep-${crypto.randomUUID().slice(0, 8)}.example`;
    const deep = `<p>Deep start.</p>${"<div>".repeat(400)}Deep end.${"</div>".repeat(400)}`;
    const file = wxr(site, [
      item(1, "Before", "<p>Before <em>this</em>.</p>"),
      item(2, "Deep", deep),
      item(3, "After", "<p>After.</p>"),
    ]);
    const h = importHarness();
    const admin = await importAdmin();
    const { jobId } = await h.services().imports.start(admin, fileOf(file, "d.xml"), "site");
    const preview = await h.services().imports.get(admin, jobId);
    expect(preview.summary.problems).toEqual([
      { title: "Deep", warning: expect.stringMatching(/nests deeper.*imported as plain text/) },
    ]);
    await h.services().imports.confirm(admin, jobId, { default_category: "Lifestyle" });
    while ((await h.services().importRunner.runBatch(jobId)).more);
    const posts = await importedBlogs(jobId);
    expect(posts.map((p) => [p.title, p.status])).toEqual([
      ["Before", "published"],
      ["Deep", "published"],
      ["After", "published"],
    ]);
    expect(posts[0]!.blog_details).toBe("Before _this_.");
    expect(posts[1]!.blog_details).toBe("Deep start.\n\nDeep end.");
  });

  it("a file whose posts are mostly nested past the cap is still refused whole", async () => {
    const site = `deep-${crypto.randomUUID().slice(0, 8)}.example`;
    const deep = `${"<div><b>".repeat(5_000)}x${"</b></div>".repeat(5_000)}`;
    const file = wxr(site, [item(1, "One", deep), item(2, "Two", deep), item(3, "Fine", "<p>Fine.</p>")]);
    const error = await importHarness()
      .services()
      .imports.start(await importAdmin(), fileOf(file, "attack.xml"), "site")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).message).toContain(IMPORT_ERRORS.nesting);
  });
});

const mediumFile = (title: string, body: string, tags = "") =>
  enc(
    `<!DOCTYPE html><html><head><title>${title}</title></head><body><article class="h-entry"><header><h1 class="p-name">${title}</h1></header>` +
      `<section data-field="body" class="e-content">${body}</section><footer>${tags}<p><time class="dt-published" datetime="2024-06-03T09:41:57.629Z">June 3</time></p>` +
      `<p><a href="https://medium.com/@me/${encodeURIComponent(title)}" class="p-canonical">Canonical link</a></p></footer></article></body></html>`,
  );

describe("Medium responses", () => {
  it("knows a response whose title runs across a paragraph break (Medium's export has no space between them)", () => {
    // Minified as Medium writes it: no whitespace between the paragraphs.
    const body =
      '<section class="section section--body"><div class="section-content"><div class="section-inner sectionLayout--insetColumn">' +
      '<p class="graf graf--p graf--leading">Great point.</p><p class="graf graf--p">I would add that caching helps a lot here.</p>' +
      '<p class="graf graf--p graf--trailing">Thanks!</p></div></div></section>';
    const parsed = parseMedium(
      new Map([
        ["posts/2024-06-03_Great-point--I-would-add-1.html", mediumFile("Great point. I would add that…", body)],
        [
          "posts/2024-06-01_A-story-2.html",
          mediumFile("A story", '<h3 class="graf graf--title">A story</h3><p>Once.</p><p>Twice.</p>'),
        ],
      ]),
    );
    expect(parsed.posts.map((p) => [p.title, p.status])).toEqual([
      ["A story", "published"],
      ["Great point. I would add that…", "draft"],
    ]);
  });
});

describe("WordPress titles", () => {
  it("keeps tag-like text in a title (IEnumerable<T>) and drops only real tags", () => {
    const file = wxr("titles.example", [
      item(1, "<![CDATA[Using IEnumerable<T> with <em>LINQ</em> &amp; friends]]>", "<p>x</p>"),
      item(2, "Map&lt;string, List&lt;int&gt;&gt; in C#", "<p>y</p>"),
      item(3, "<![CDATA[Why <b>bold</b> is a <tag> &hellip;]]>", "<p>z</p>"),
    ]);
    expect(parseWordPress(file).posts.map((p) => p.title)).toEqual([
      "Using IEnumerable<T> with LINQ & friends",
      "Map<string, List<int>> in C#",
      "Why bold is a <tag> …",
    ]);
  });
});

describe("code blocks", () => {
  it("keeps a <pre>'s <br> as line breaks and its images, after the block", () => {
    const md = htmlToMarkdown(
      '<pre>first line<br>second line<br />third <img src="https://old.example/shot.png" alt="A shot"> line</pre><p>After.</p>',
    );
    expect(md).toBe(
      "```\nfirst line\nsecond line\nthird  line\n```\n\n![A shot](https://old.example/shot.png)\n\nAfter.",
    );
  });

  it("reads SyntaxHighlighter's brush aliases, the visual editor's <br /> and <p> inside a shortcode, and the block's language", () => {
    const file = wxr("code.example", [
      item(1, "Aliases", "[cf]<cfset x = 1>[/cf]\n\n[clj](+ 1 2)[/clj]\n\n[obj-c]@end[/obj-c]\n\n[ror]puts 1[/ror]"),
      item(2, "Visual", "<p>[csharp]var a = new List&lt;int&gt;();<br />\nvar b = 2;</p>\n<p>var c = 3;[/csharp]</p>"),
      item(
        3,
        "Block",
        '<!-- wp:syntaxhighlighter/code {"language":"jscript"} -->\n<pre class="wp-block-syntaxhighlighter-code">let x = 1 &lt; 2;</pre>\n<!-- /wp:syntaxhighlighter/code -->',
      ),
      item(4, "Classic", '<pre class="brush: pas; title: ; notranslate" title="">begin end.</pre>'),
    ]);
    const [aliases, visual, block, classic] = parseWordPress(file).posts.map((p) => p.markdown);
    expect(aliases).toBe(
      "```coldfusion\n<cfset x = 1>\n```\n\n```clojure\n(+ 1 2)\n```\n\n```objectivec\n@end\n```\n\n```ruby\nputs 1\n```",
    );
    expect(visual).toBe("```csharp\nvar a = new List<int>();\nvar b = 2;\n\nvar c = 3;\n```");
    expect(block).toBe("```javascript\nlet x = 1 < 2;\n```");
    expect(classic).toBe("```pascal\nbegin end.\n```");
  });
});

describe("relative image addresses", () => {
  it("WordPress: /wp-content/… is the blog's, //host/… is https, covers too", async () => {
    const site = `rel-${crypto.randomUUID().slice(0, 8)}.example`;
    const file = wxr(site, [
      item(
        1,
        "Relative",
        '<p><img src="/wp-content/uploads/a.png" alt="a"></p><p><img src="//cdn.example/b.png" alt="b"></p>',
        `<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>91</wp:meta_value></wp:postmeta>`,
      ),
    ])
      .replace("</wp:base_site_url>", `</wp:base_site_url><wp:base_blog_url>https://blog.${site}</wp:base_blog_url>`)
      .replace(
        "<item>",
        `<item><title>c</title><wp:post_id>91</wp:post_id><wp:post_type>attachment</wp:post_type>` +
          `<wp:attachment_url>/wp-content/uploads/cover.png</wp:attachment_url></item><item>`,
      );
    const { jobId, view } = await importHarness().importFile(await importAdmin(), fileOf(file, "rel.xml"));
    expect(view.job.imagesFailed).toBe(0);
    expect(fetches.urls).toEqual(
      expect.arrayContaining([
        `https://blog.${site}/wp-content/uploads/a.png`,
        "https://cdn.example/b.png",
        `https://blog.${site}/wp-content/uploads/cover.png`,
      ]),
    );
    const [post] = await importedBlogs(jobId);
    expect(post!.blog_details).toMatch(/^!\[a\]\(\/images\/[^)]+\)\n\n!\[b\]\(\/images\/[^)]+\)$/);
    expect(post!.image).toMatch(/^\/images\/(?!import-placeholder)/);
  });

  it("Ghost: /content/images/… is the site's the uploader names", async () => {
    const ghost = JSON.stringify({
      db: [
        {
          meta: { version: "1.25.0" },
          data: {
            posts: [
              {
                id: "r1",
                uuid: `rel-${crypto.randomUUID()}`,
                title: "Old Ghost",
                status: "published",
                published_at: "2018-01-01T00:00:00.000Z",
                html: '<p><img src="/content/images/2018/01/x.jpg" alt="x"></p>',
              },
            ],
          },
        },
      ],
    });
    const h = importHarness();
    const admin = await importAdmin();
    const { jobId } = await h
      .services()
      .imports.start(admin, fileOf(ghost, "g.json"), "site", "https://old-ghost.example");
    await h.services().imports.confirm(admin, jobId, { default_category: "Lifestyle" });
    while ((await h.services().importRunner.runBatch(jobId)).more);
    expect(fetches.urls).toContain("https://old-ghost.example/content/images/2018/01/x.jpg");
  });
});

describe("archive images", () => {
  it("a bare % in an image's name (100%.png) is the name as written, not a failed import", async () => {
    const id = crypto.randomUUID().slice(0, 6);
    const zip = zipSync({
      "posts.csv": enc(
        `post_id,post_date,is_published,type,audience,title,subtitle\n${id}.pct,2023-01-01T10:00:00.000Z,true,newsletter,everyone,Percent,\n`,
      ),
      [`posts/${id}.pct.html`]: enc('<p>Up 100%!</p><p><img src="img/100%.png" alt="chart"></p>'),
      "posts/img/100%.png": PNG,
    });
    const { jobId, view } = await importHarness().importFile(await importAdmin(), fileOf(zip, "pct.zip"));
    expect(view.summary.problems).toEqual([]);
    expect([view.job.imagesDone, view.job.imagesFailed]).toEqual([1, 0]);
    const [post] = await importedBlogs(jobId);
    expect(post!.blog_details).toMatch(/^Up 100%!\n\n!\[chart\]\(\/images\/[^)]+\)$/);
  });
});

describe("retrying failed images", () => {
  it("counts a copied cover as placed only when it shows: a cover the writer changed since stays failed", async () => {
    const site = `rc-${crypto.randomUUID().slice(0, 8)}.example`;
    const file = wxr(site, [
      item(
        1,
        "Covered",
        `<p><img src="https://${site}/in-text.png" alt="t"></p>`,
        `<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>90</wp:meta_value></wp:postmeta>`,
      ),
    ]);
    const admin = await importAdmin();
    const h = importHarness();
    fetches.failAll();
    const { jobId, view } = await h.importFile(admin, fileOf(file, "rc.xml"));
    expect([view.job.imagesDone, view.job.imagesFailed]).toEqual([0, 2]);
    const blogId = view.report.items[0]!.blogId!;
    // The writer picks another cover before the old site is back.
    await env.DB.prepare("update blogs set image = '/images/their-own.png' where id = ?").bind(blogId).run();
    const retry = stubImageFetch();
    try {
      expect(await h.services().imports.retryImages(admin, jobId)).toEqual({ retried: 2, copied: 1, stillFailed: 1 });
    } finally {
      retry.restore();
    }
    const after = await h.services().imports.get(admin, jobId);
    expect([after.job.imagesDone, after.job.imagesFailed]).toEqual([1, 1]);
    expect(after.report.items[0]!.note.failedImages).toEqual([
      { url: `https://${site}/cover.png`, reason: "the post was edited since" },
    ]);
    const [post] = await importedBlogs(jobId);
    expect(post!.image).toBe("/images/their-own.png");
    expect(post!.blog_details).toMatch(/^!\[t\]\(\/images\/(?!import-placeholder)[^)]+\)$/);
  });
});
