import { describe, expect, it } from "vitest";
import {
  EXTERNAL_IMAGE_NOTE,
  MARKDOWN_MAX_CHARS,
  MARKDOWN_MAX_MARKS,
  markdownText,
  renderMarkdown,
} from "#worker/content/markdown.ts";
import { readingMinutes } from "#app/lib/blog-text.ts";

/** Known XSS payloads (OWASP filter-evasion cheat sheet and friends), typed into a post's details. */
const PAYLOADS = [
  `<script>alert(1)</script>`,
  `<SCRIPT SRC=//evil.example/xss.js></SCRIPT>`,
  `<img src=x onerror=alert(1)>`,
  `<img src="/images/a.png" onerror="alert(1)">`,
  `<svg onload=alert(1)><circle r=1 /></svg>`,
  `<svg><script>alert(1)</script></svg>`,
  `<iframe src="javascript:alert(1)"></iframe>`,
  `<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
  `<object data="javascript:alert(1)"></object>`,
  `<embed src="data:text/html,<script>alert(1)</script>">`,
  `<style>body{background:url(javascript:alert(1))}</style>`,
  `<div style="background:url(javascript:alert(1))">x</div>`,
  `<a href="javascript:alert(1)">x</a>`,
  `<a href="&#106;avascript:alert(1)">x</a>`,
  `<body onload=alert(1)>`,
  `<math><mi xlink:href="javascript:alert(1)">x</mi></math>`,
  `<details open ontoggle=alert(1)>`,
  `<form action="javascript:alert(1)"><button>x</button></form>`,
  `<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
  `<base href="javascript:alert(1)//">`,
  `<!--<img src="--><img src=x onerror=alert(1)//">`,
  `[x](javascript:alert(1))`,
  `[x](JaVaScRiPt:alert(1))`,
  `[x]( javascript:alert(1) )`,
  `[x](java\tscript:alert(1))`,
  `[x](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1))`,
  `[x](&#x6A;avascript:alert(1))`,
  `[x](%6Aavascript:alert(1))`,
  `[x](vbscript:msgbox(1))`,
  `[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
  `[x](javascript://%0aalert(1))`,
  `[x][ref]\n\n[ref]: javascript:alert(1)`,
  `<javascript:alert(1)>`,
  `![x](javascript:alert(1))`,
  `![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)`,
  `![x](https://evil.example/pixel.png)`,
  `![x](//evil.example/images/a.png)`,
  `![x](/images/../api/users)`,
  `![x](/images/a.png" onerror="alert(1))`,
  `[x](https://ok.example "title\\" onmouseover=\\"alert(1))`,
  "```html\n<script>alert(1)</script>\n```",
  "`<img src=x onerror=alert(1)>`",
  `**<img src=x onerror=alert(1)>**`,
  `> <iframe src=//evil.example>`,
  `- <a href=javascript:alert(1)>x</a>`,
];

/** Anything that could run script or load from elsewhere, found in the rendered HTML's real markup. */
function dangers(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.matchAll(/<([a-z][a-z0-9]*)([^>]*)>/gi)) {
    const [, name, attrs] = tag;
    if (/^(script|iframe|object|embed|svg|math|style|form|meta|base|body|details|link)$/i.test(name!))
      found.push(tag[0]);
    if (/\son[a-z]+\s*=/i.test(attrs!)) found.push(tag[0]);
    if (/\sstyle\s*=/i.test(attrs!)) found.push(tag[0]);
    for (const m of attrs!.matchAll(/\s(href|src)\s*=\s*"([^"]*)"/gi)) {
      const value = m[2]!;
      if (m[1]!.toLowerCase() === "src" && !/^\/images\/[A-Za-z0-9._~%/-]+$/.test(value)) found.push(tag[0]);
      if (m[1]!.toLowerCase() === "href" && !/^(https?:\/\/|mailto:|\/[^/\\]|#)/i.test(value)) found.push(tag[0]);
    }
  }
  return found;
}

describe("Markdown rendering and sanitising", () => {
  it.each(PAYLOADS)("stops %s", (payload) => {
    const html = renderMarkdown(payload);
    expect(dangers(html)).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<(iframe|object|embed|svg|style)/i);
    expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data):/i);
  });

  it("renders headings (the page title is the only h1), emphasis, lists, links, quotes and code", () => {
    const html = renderMarkdown(
      "# Title\n\n### Part\n\n**bold** _it_\n\n- one\n- two\n\n1. first\n\n[site](https://example.com)\n\n> quoted\n\n```\nlet x = 1 < 2;\n```",
    );
    expect(html).toContain("<h2>Title</h2>");
    expect(html).toContain("<h3>Part</h3>");
    expect(html).toContain("<strong>bold</strong> <em>it</em>");
    expect(html).toContain("<ul>\n<li>one</li>\n<li>two</li>\n</ul>");
    expect(html).toContain("<ol>\n<li>first</li>\n</ol>");
    expect(html).toContain('<a href="https://example.com" rel="nofollow ugc noopener">site</a>');
    expect(html).toContain("<blockquote>\n<p>quoted</p>\n</blockquote>");
    expect(html).toContain("<pre><code>let x = 1 &lt; 2;\n</code></pre>");
  });

  it("keeps images from this site's /images and drops others to their alt text", () => {
    expect(renderMarkdown("![A cat](/images/cat-0001.png)")).toContain('<img src="/images/cat-0001.png" alt="A cat"');
    const other = renderMarkdown("![A cat](https://evil.example/cat.png)");
    expect(other).not.toContain("<img");
    expect(other).toContain("A cat");
  });

  it("shows another site's image as a link named by its alt text, with a note", () => {
    const html = renderMarkdown("Look: ![A cat](https://img.example/cat.png)");
    expect(html).toContain(
      `<a href="https://img.example/cat.png" rel="nofollow ugc noopener">A cat</a> <small>${EXTERNAL_IMAGE_NOTE}</small>`,
    );
    expect(html).not.toContain("<img");
    // No alt text: the host names the link.
    expect(renderMarkdown("![](https://img.example/dog.png)")).toContain(">img.example</a>");
    // Only web links: a script URL stays text.
    expect(renderMarkdown("![x](javascript:alert(1))")).not.toContain("<a");
    // Typed HTML is still text, even the note's own tag.
    expect(renderMarkdown("<small>hi</small>")).not.toContain("<small>");
  });

  it("renders an old plain post as it did: paragraphs, line breaks kept, HTML shown as text", () => {
    const html = renderMarkdown(
      'First paragraph with <script>alert("x")</script> inside.\n\nSecond paragraph,\nwith a line break.\n\n\n<b>Third</b> one.',
    );
    expect(html).toBe(
      '<p>First paragraph with &lt;script&gt;alert("x")&lt;/script&gt; inside.</p>\n' +
        "<p>Second paragraph,<br>with a line break.</p>\n" +
        "<p>&lt;b&gt;Third&lt;/b&gt; one.</p>\n",
    );
  });

  it("counts words, not markup, for the reading time", () => {
    expect(markdownText("## Hello **big** [world](https://example.com)\n\n- a\n- b")).toBe("Hello big world a b");
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(" ");
    const marked = Array.from({ length: 400 }, (_, i) => `**w${i}**`).join(" ");
    expect(readingMinutes(markdownText(marked))).toBe(readingMinutes(words));
    expect(readingMinutes(markdownText(`${words} ${"[x](https://example.com/a/very/long/url) ".repeat(10)}`))).toBe(2);
  });
});

describe("Markdown caps (findings 6 and 8)", () => {
  it("refuses %-escaped and dot-segment image paths", () => {
    for (const src of [
      "/images/%2e%2e/api/users",
      "/images/%2E%2E%2Fapi",
      "/images/..%2fapi",
      "/images/a/../../api",
      "/images/a\\b.png",
    ]) {
      expect(renderMarkdown(`![x](${src})`), src).not.toContain("<img");
    }
    expect(renderMarkdown("![x](/images/w640/cat-0001.png)")).toContain('<img src="/images/w640/cat-0001.png"');
  });

  it(`"_a" x 25,000 renders fast: more than ${MARKDOWN_MAX_MARKS} emphasis marks are shown as plain characters`, () => {
    const started = Date.now();
    const html = renderMarkdown("_a".repeat(25_000));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(html).not.toContain("<em>");
    expect(html).toContain("_a_a");
    // Ordinary emphasis is untouched.
    expect(renderMarkdown("some _emphasis_ here")).toContain("<em>emphasis</em>");
  });

  it(`renders at most ${MARKDOWN_MAX_CHARS} characters`, () => {
    const html = renderMarkdown(`${"x".repeat(MARKDOWN_MAX_CHARS)}TAIL`);
    expect(html).not.toContain("TAIL");
  });
});
