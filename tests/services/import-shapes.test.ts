import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { fileOf, importAdmin, importedBlogs, importHarness, stubImageFetchEachTest } from "../support/imports";

const fetches = stubImageFetchEachTest();
const enc = (t: string) => new TextEncoder().encode(t);

const item = (id: number, title: string, html: string) =>
  `<item><title>${title}</title><dc:creator>admin</dc:creator><content:encoded><![CDATA[${html}]]></content:encoded>` +
  `<wp:post_id>${id}</wp:post_id><wp:post_date_gmt>2021-05-01 10:00:00</wp:post_date_gmt><wp:status>publish</wp:status>` +
  `<wp:post_type>post</wp:post_type></item>`;
const wxr = (site: string, items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" ` +
  `xmlns:wp="http://wordpress.org/export/1.2/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>x</title>` +
  `<wp:base_site_url>https://${site}</wp:base_site_url>${items.join("")}</channel></rss>`;

async function importWxr(items: string[]) {
  const site = `shapes-${crypto.randomUUID().slice(0, 8)}.example`;
  const admin = await importAdmin();
  const { jobId } = await importHarness().importFile(admin, fileOf(wxr(site, items), "site.xml"));
  return importedBlogs(jobId);
}

describe("WordPress's real shapes", () => {
  it("turns code shortcodes into fenced blocks with their language, blank lines and brackets kept", async () => {
    const [post] = await importWxr([
      item(
        1,
        "Code",
        "<p>C# first:</p>\n\n[csharp]\npublic List<int> Get()\n{\n\n    return new List<int>();\n}\n[/csharp]\n\n" +
          '[sourcecode language="python"]\ndef f():\n    return [1, 2]\n[/sourcecode]\n\n' +
          '[code lang="js"]if (a && b < c) run();[/code]\n\n[php]echo $x;[/php]\n\n<p>Done [sic].</p>',
      ),
    ]);
    const md = post!.blog_details;
    expect(md).toContain("```csharp\npublic List<int> Get()\n{\n\n    return new List<int>();\n}\n```");
    expect(md).toContain("```python\ndef f():\n    return [1, 2]\n```");
    expect(md).toContain("```javascript\nif (a && b < c) run();\n```");
    expect(md).toContain("```php\necho $x;\n```");
    expect(md).not.toContain("[csharp]");
    expect(md).not.toContain("[/sourcecode]");
    expect(md).toContain("Done \\[sic\\].");
  });

  it("reads Gutenberg block content as its markup says, a code block's blank lines kept", async () => {
    const [post] = await importWxr([
      item(
        1,
        "Blocks",
        "<!-- wp:paragraph -->\n<p>First paragraph.</p>\n<!-- /wp:paragraph -->\n\n" +
          '<!-- wp:code -->\n<pre class="wp-block-code"><code>line one\n\nline three</code></pre>\n<!-- /wp:code -->\n\n' +
          '<!-- wp:image {"id":5} -->\n<figure class="wp-block-image"><img src="https://old.example/a.png" alt="A"/><figcaption>The caption</figcaption></figure>\n<!-- /wp:image -->',
      ),
    ]);
    const md = post!.blog_details;
    expect(md).toContain("First paragraph.");
    expect(md).toContain("```\nline one\n\nline three\n```");
    expect(md).toMatch(/!\[A\]\(\/images\/[^)]+\)\n\n\*The caption\*/);
    expect(md).not.toContain("wp:");
  });

  it("keeps every image: in tables, lists, links and figures, with any alt text and address", async () => {
    const cells = Array.from({ length: 9 }, (_, i) => `<td><img src="https://old.example/t${i}.png" alt="t${i}"></td>`);
    const table = `<table><tr>${cells.slice(0, 3).join("")}</tr><tr>${cells.slice(3, 6).join("")}</tr><tr>${cells.slice(6).join("")}</tr></table>`;
    const [post] = await importWxr([
      item(
        1,
        "Images",
        `${table}<ul><li><img src="https://old.example/l1.png" alt="in a list"></li>` +
          `<li><a href="https://old.example/big.png"><img src="https://old.example/l2.png" alt="linked"></a></li></ul>` +
          `<figure><img src="https://old.example/f.png" alt='clip_image002[6]' title='A "quoted" title'><figcaption>Figure [1]: (a) "quoted"</figcaption></figure>` +
          `<p><img src="https://old.example/with (parens) and space.png" alt="odd address"></p>`,
      ),
    ]);
    const md = post!.blog_details;
    // 9 + 2 + 1 + 1 images, each copied here: nothing left pointing at the old site but the link.
    expect(md.match(/!\[/g)).toHaveLength(13);
    expect(md.match(/\(\/images\/[^)\s]+/g)).toHaveLength(13);
    expect(md.replace("(https://old.example/big.png)", "")).not.toContain("old.example");
    expect(md).toContain("![clip\\_image002\\[6\\]](/images/");
    expect(md).toContain('*Figure \\[1\\]: (a) "quoted"*');
    expect(fetches.urls).toContain("https://old.example/with%20(parens)%20and%20space.png");
  });
});

describe("Medium and Substack as their exports are", () => {
  const medium = (title: string, body: string, extra = "") =>
    enc(
      `<!DOCTYPE html><html><head><title>${title}</title></head><body><article class="h-entry"><header><h1 class="p-name">${title}</h1></header>` +
        `<section data-field="body" class="e-content">${body}</section><footer><p><time class="dt-published" datetime="2024-06-03T09:41:57.629Z">June 3</time></p>` +
        `<p><a href="https://medium.com/@me/${encodeURIComponent(title)}" class="p-canonical">Canonical link</a></p>${extra}</footer></article></body></html>`,
    );

  it("keeps a long response to a reader as a draft, and a story published", async () => {
    const zip = zipSync({
      "posts/2024-06-03_Hi-Rohan--thanks-abc.html": medium(
        "Hi Rohan, thanks for reading…",
        '<p class="graf graf--p">Hi Rohan, thanks for reading this far.</p><p class="graf graf--p">The second part answers your question.</p><p class="graf graf--p">Best, me</p>',
      ),
      "posts/2024-06-01_A-story-def.html": medium(
        "A story",
        '<h3 class="graf graf--h3 graf--title">A story</h3><p class="graf graf--p">Once upon a time.</p><p class="graf graf--p">The end.</p>',
      ),
    });
    const admin = await importAdmin();
    const { jobId } = await importHarness().importFile(admin, fileOf(zip, "medium.zip"));
    const posts = await importedBlogs(jobId);
    expect(posts.map((p) => [p.title, p.status])).toEqual([
      ["A story", "published"],
      ["Hi Rohan, thanks for reading…", "draft"],
    ]);
  });

  it("publishes paid-only Substack posts for paying members, and takes subscribers from email_list*.csv only", async () => {
    const id = crypto.randomUUID().slice(0, 6);
    const csv =
      "post_id,post_date,is_published,email_sent_at,type,audience,title,subtitle,podcast_url\n" +
      `${id}1.free,2023-01-01T10:00:00.000Z,true,,newsletter,everyone,Free post,,\n` +
      `${id}2.paid,2023-01-02T10:00:00.000Z,true,,newsletter,only_paid,Paid post,,\n`;
    const sub = `sub-${id}@example.com`;
    const zip = zipSync({
      "posts.csv": enc(csv),
      [`posts/${id}1.free.html`]: enc("<p>Free words.</p>"),
      [`posts/${id}2.paid.html`]: enc("<p>Paid words.</p>"),
      [`posts/${id}1.free.opens.csv`]: enc(`email,timestamp\nreader-${id}@example.com,2023-01-01\n`),
      [`email_list.mypub.csv`]: enc(`email,expiry,email_disabled\n${sub},,false\n`),
    });
    const admin = await importAdmin();
    const { jobId, view } = await importHarness().importFile(admin, fileOf(zip, "substack.zip"));
    const posts = await importedBlogs(jobId);
    expect(posts.map((p) => [p.title, p.status])).toEqual([
      ["Free post", "published"],
      ["Paid post", "published"],
    ]);
    const paid = await env.DB.prepare(
      "select visibility from blogs where title = 'Paid post' order by rowid desc",
    ).first();
    expect(paid).toEqual({ visibility: "paid" });
    expect(view.summary.subscribers).toBe(1);
    expect(view.summary.problems).toEqual([]);
    const row = await env.DB.prepare("select state from newsletter_subscriptions where email = ?").bind(sub).first();
    expect(row).toEqual({ state: "confirmed" });
    const opener = await env.DB.prepare("select 1 from newsletter_subscriptions where email = ?")
      .bind(`reader-${id}@example.com`)
      .first();
    expect(opener).toBeNull();
  });
});
