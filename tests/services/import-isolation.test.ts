import { describe, expect, it } from "vitest";
import { fileOf, importAdmin, importedBlogs, importHarness, stubImageFetchEachTest } from "../support/imports";

stubImageFetchEachTest();

const item = (id: number, title: string, html: string) =>
  `<item><title>${title}</title><dc:creator>admin</dc:creator><content:encoded><![CDATA[${html}]]></content:encoded>` +
  `<wp:post_id>${id}</wp:post_id><wp:post_date_gmt>2021-05-0${id} 10:00:00</wp:post_date_gmt><wp:status>publish</wp:status>` +
  `<wp:post_type>post</wp:post_type></item>`;

const wxr = (site: string, items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" ` +
  `xmlns:wp="http://wordpress.org/export/1.2/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>x</title>` +
  `<wp:base_site_url>https://${site}</wp:base_site_url>${items.join("")}</channel></rss>`;

describe("one bad post never sinks an import", () => {
  it("keeps a bare address in a code block as the text it was (the converter threw INVALID_CHARACTER_ERR)", async () => {
    const admin = await importAdmin();
    const site = `iso-${crypto.randomUUID().slice(0, 8)}.example`;
    const file = wxr(site, [
      item(1, "Before", "<p>The first post.</p>"),
      item(
        2,
        "Mail headers",
        "<p>A header:</p><pre><code>From: Everet &lt;x&gt; <et@everet.org>\nTo: you</code></pre>",
      ),
      item(3, "After", "<p>The last post.</p>"),
    ]);
    const { jobId, view } = await importHarness().importFile(admin, fileOf(file, "site.xml"));
    expect(view.job.imported).toBe(3);
    const posts = await importedBlogs(jobId);
    expect(posts.map((p) => p.title)).toEqual(["Before", "Mail headers", "After"]);
    expect(posts[1]!.blog_details).toContain("From: Everet <x> <et@everet.org>");
    expect(posts[1]!.blog_details).toContain("```");
  });

  it("imports a post its converter fails on as plain text, as it was (published), named with a warning; the rest arrive", async () => {
    const admin = await importAdmin();
    const site = `iso-${crypto.randomUUID().slice(0, 8)}.example`;
    const file = wxr(site, [
      item(1, "Fine", "<p>Fine words.</p>"),
      // An SVG element named with two colons: domino parses it, then refuses to clone it (turndown clones).
      item(2, "Broken drawing", "<p>Words around a drawing.</p><svg><a:b:c>label</a:b:c></svg><p>More words.</p>"),
      item(3, "Also fine", "<p>Also fine words.</p>"),
    ]);
    const h = importHarness();
    const { jobId } = await h.services().imports.start(admin, fileOf(file, "site.xml"), "site");
    const preview = await h.services().imports.get(admin, jobId);
    expect(preview.summary.problems).toEqual([
      { title: "Broken drawing", warning: expect.stringContaining("imported as plain text") },
    ]);
    await h.services().imports.confirm(admin, jobId, { default_category: "Lifestyle" });
    while ((await h.services().importRunner.runBatch(jobId)).more);
    const view = await h.services().imports.get(admin, jobId);
    expect(view.job.imported).toBe(3);
    expect(view.job.failed).toBe(0);
    const broken = view.report.items.find((i) => i.title === "Broken drawing")!;
    expect(broken.note.warnings).toEqual([expect.stringContaining("could not be converted")]);
    const posts = await importedBlogs(jobId);
    const post = posts.find((p) => p.title === "Broken drawing")!;
    expect(post.status).toBe("published");
    expect(post.date_time).toBe("2021-05-02T10:00:00.000Z");
    expect(post.blog_details).toContain("Words around a drawing.");
    expect(post.blog_details).toContain("More words.");
  });
});
