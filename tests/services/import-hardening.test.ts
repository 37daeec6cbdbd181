import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { IMPORT_ERRORS, MAX_UNZIPPED_BYTES } from "#worker/services/import/archive.ts";
import { assertHtmlDepth, MAX_HTML_DEPTH } from "#worker/services/import/nesting.ts";
import { DomainError } from "#worker/services/shared/errors.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeUser } from "../support/factories";
import { fileOf, importAdmin, importedBlogs, importHarness, stubImageFetchEachTest } from "../support/imports";

stubImageFetchEachTest();

const writer = async (): Promise<Actor> => {
  const u = await makeUser({ email: `writer-${crypto.randomUUID()}@example.com`, name: "Wendy Writer" });
  return { id: u.id, name: u.name, email: u.email, role: "user", photoURL: null };
};

const enc = (t: string) => new TextEncoder().encode(t);

/** A WXR holding one post (id `postId` of `site`) and the given comments. */
function wxr(site: string, postId: string, title: string, comments: { name: string; email: string; text: string }[]) {
  const c = comments
    .map(
      (x, i) =>
        `<wp:comment><wp:comment_id>${i + 1}</wp:comment_id><wp:comment_author><![CDATA[${x.name}]]></wp:comment_author>` +
        `<wp:comment_author_email>${x.email}</wp:comment_author_email><wp:comment_date_gmt>2020-01-02 10:00:00</wp:comment_date_gmt>` +
        `<wp:comment_content><![CDATA[${x.text}]]></wp:comment_content><wp:comment_approved>1</wp:comment_approved>` +
        `<wp:comment_type></wp:comment_type></wp:comment>`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" ` +
    `xmlns:wp="http://wordpress.org/export/1.2/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>` +
    `<title>Old</title><link>https://${site}</link><wp:base_site_url>https://${site}</wp:base_site_url>` +
    `<item><title>${title}</title><dc:creator><![CDATA[someone]]></dc:creator><content:encoded><![CDATA[<p>Body of ${title}.</p>]]></content:encoded>` +
    `<wp:post_id>${postId}</wp:post_id><wp:post_date_gmt>2020-01-01 10:00:00</wp:post_date_gmt><wp:status>publish</wp:status>` +
    `<wp:post_type>post</wp:post_type>${c}</item></channel></rss>`
  );
}

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("a writer's own import speaks for nobody else", () => {
  it("creates no account and writes no comment as another member: comments become the writer's quotes", async () => {
    const member = await makeUser({ email: `member-${crypto.randomUUID()}@example.com`, name: "Mona Member" });
    const me = await writer();
    const stranger = `stranger-${crypto.randomUUID()}@example.com`;
    const usersBefore = await count("select count(*) as n from users");
    const h = importHarness();
    const file = wxr("own-blog.example", "7", "Mine", [
      { name: "Mona", email: member.email, text: "I agree with this." },
      { name: "Sam Stranger", email: stranger, text: "First!" },
      { name: "Wendy", email: me.email, text: "Thanks both." },
    ]);
    const { jobId, view } = await h.importFile(me, fileOf(file, "mine.xml"), "own");
    expect(await count("select count(*) as n from users")).toBe(usersBefore);
    expect(await count("select count(*) as n from users where email = ?", stranger)).toBe(0);
    const [post] = await importedBlogs(jobId);
    expect(post!.email).toBe(me.email);
    const { results } = await env.DB.prepare(
      "select c.user_id, c.body from comments c join import_items i on i.blog_id = c.blog_id where i.job_id = ? order by c.created_at",
    )
      .bind(jobId)
      .all<{ user_id: string; body: string }>();
    expect(results.map((r) => r.user_id)).toEqual([me.id, me.id, me.id]);
    expect(results[0]!.body).toContain("Mona");
    expect(results[0]!.body).toContain("I agree with this.");
    expect(results[1]!.body).toContain("Sam Stranger");
    // The writer's own comment stays theirs, as written.
    expect(results[2]!.body).toBe("Thanks both.");
    expect(await count("select count(*) as n from comments where user_id = ?", member.id)).toBe(0);
    expect(view.report.items[0]!.note).toMatchObject({ comments: 3, commentsQuoted: 2 });
  });

  it("keeps one ledger per importer: a writer's forged file never makes the admin's import skip a post", async () => {
    const me = await writer();
    const admin = await importAdmin();
    const h = importHarness();
    const site = `real-${crypto.randomUUID().slice(0, 8)}.example`;
    const forged = await h.importFile(me, fileOf(wxr(site, "42", "Forged copy", []), "forged.xml"), "own");
    expect(forged.view.job.imported).toBe(1);
    const real = await h.importFile(admin, fileOf(wxr(site, "42", "The real post", []), "site.xml"), "site");
    expect(real.view.job.imported).toBe(1);
    expect(real.view.job.skipped).toBe(0);
    const [post] = await importedBlogs(real.jobId);
    expect(post!.title).toBe("The real post");
    // The writer's own second import of their file is still idempotent.
    const again = await h.importFile(me, fileOf(wxr(site, "42", "Forged copy", []), "forged.xml"), "own");
    expect(again.view.job.skipped).toBe(1);
  });
});

/** Starts an import and answers its refusal (or null when it was accepted), with the time it took. */
async function refusal(file: File) {
  const admin = await importAdmin();
  const t0 = Date.now();
  const error = await importHarness()
    .services()
    .imports.start(admin, file, "site")
    .then(
      () => null,
      (e: unknown) => e,
    );
  return { error: error as DomainError | null, ms: Date.now() - t0 };
}

const lexicalNest = (depth: number) => {
  let node = '{"type":"text","text":"deep"}';
  for (let i = 0; i < depth; i++) node = `{"type":"paragraph","children":[${node}]}`;
  return `{"root":{"type":"root","children":[${node}]}}`;
};
const ghost = (post: Record<string, unknown>) =>
  JSON.stringify({
    db: [{ meta: { version: "5.0.0" }, data: { posts: [{ id: "1", title: "Deep", status: "published", ...post }] } }],
  });

describe("deep nesting is refused with a 400, quickly", () => {
  const cases: [string, () => File][] = [
    [
      "50,000-deep XML",
      () =>
        fileOf(
          `<?xml version="1.0"?><rss><channel>${"<a>".repeat(50_000)}${"</a>".repeat(50_000)}</channel></rss>`,
          "x.xml",
        ),
    ],
    [
      "deeply nested HTML inside a WXR post",
      () =>
        fileOf(
          wxr("nest.example", "1", "Nested", []).replace(
            "<p>Body of Nested.</p>",
            `${"<div><b>".repeat(20_000)}deep${"</b></div>".repeat(20_000)}`,
          ),
          "nested.xml",
        ),
    ],
    // What the depth scan once read otherwise than the HTML parser (each 20,000 deep to the parser).
    ...(
      [
        ["behind an empty comment <!-->", `<!-->${"<div>".repeat(20_000)}deep<!-- -->`],
        ['in tags with "/>" inside an attribute', '<div title="/>">'.repeat(20_000)],
        ["in <div/> (HTML ignores the slash)", "<div/>".repeat(20_000)],
        ["between stray end tags the parser ignores", `${"<div>".repeat(200)}${"</span>".repeat(200)}`.repeat(100)],
        [
          "around end tags inside <script>",
          `${"<div>".repeat(200)}<script>${"</div>".repeat(200)}</script>`.repeat(100),
        ],
      ] as const
    ).map(([how, body]): [string, () => File] => [
      `HTML nested ${how}`,
      () => fileOf(wxr("nest.example", "1", "Nested", []).replace("<p>Body of Nested.</p>", body), "nested.xml"),
    ]),
    ["deeply nested Lexical (Ghost 5)", () => fileOf(ghost({ lexical: lexicalNest(20_000) }), "ghost.json")],
    [
      "mobiledoc whose markups nest deeply",
      () =>
        fileOf(
          ghost({
            mobiledoc: JSON.stringify({
              version: "0.3.1",
              markups: [["b"]],
              atoms: [],
              cards: [],
              sections: [[1, "p", Array.from({ length: 20_000 }, () => [0, [0], 0, "x"])]],
            }),
          }),
          "ghost.json",
        ),
    ],
    ["JSON nested 100,000 deep", () => fileOf(`{"db":${"[".repeat(100_000)}${"]".repeat(100_000)}}`, "deep.json")],
  ];
  for (const [what, file] of cases)
    it(`refuses ${what}`, async () => {
      const { error, ms } = await refusal(file());
      expect(error).toBeInstanceOf(DomainError);
      expect(error!.kind).toBe("invalid");
      expect(error!.message).toContain(IMPORT_ERRORS.nesting);
      expect(ms).toBeLessThan(3000);
    });
});

describe("the HTML depth scan lets real markup through", () => {
  it("counts SVG's self-closed shapes, unclosed paragraphs and list items, comments and scripts as a parser does", () => {
    const svg = `<svg viewBox="0 0 10 10">${'<path d="M0 0"/>'.repeat(1_000)}</svg>`;
    const paragraphs = "<p>one<li>two<br>".repeat(1_000);
    const noise = `<!-- <div><div> -->${"<div>".repeat(10)}<script>if (a < b) "<div>"</script>${"</div>".repeat(10)}`;
    expect(() => assertHtmlDepth(`<article>${svg}${paragraphs}${noise.repeat(100)}</article>`)).not.toThrow();
    // A closed stray end tag closes nothing, so 250 divs after 250 strays are 250 deep: under the cap.
    expect(() => assertHtmlDepth(`${"</span>".repeat(250)}${"<div>".repeat(250)}`)).not.toThrow();
    expect(() => assertHtmlDepth("<div>".repeat(MAX_HTML_DEPTH + 1))).toThrow(IMPORT_ERRORS.nesting);
  });

  it("stays linear on text full of unfinished tags", () => {
    const started = performance.now();
    expect(() => assertHtmlDepth(`<p>x</p>${"<a <b ".repeat(200_000)}`)).not.toThrow();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("a zip unpacks within a Worker's memory", () => {
  it("caps the total it unpacks well under 128 MB", () => {
    expect(MAX_UNZIPPED_BYTES).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it("refuses a zip whose entries add up past the cap, though none is a bomb on its own", async () => {
    // 20 KB of noise over and over packs about 100:1, under a bomb's ratio: 5 entries of 14 MB, 70 MB in all.
    const noise = crypto.getRandomValues(new Uint8Array(20_000));
    const chunk = new Uint8Array(14 * 1024 * 1024);
    for (let i = 0; i < chunk.length; i += noise.length) chunk.set(noise.subarray(0, chunk.length - i), i);
    const files: Record<string, Uint8Array> = { "posts.csv": enc("post_id,title\n") };
    for (let i = 0; i < 5; i++) files[`img/${i}.txt`] = chunk;
    const zip = zipSync(files, { level: 1 });
    expect(zip.byteLength).toBeLessThan(40 * 1024 * 1024);
    const { error } = await refusal(fileOf(zip, "big.zip"));
    expect(error?.message).toBe(IMPORT_ERRORS.bomb);
  }, 20_000);

  it("refuses an entry whose real size is larger than its header says", async () => {
    const zip = zipSync({ "posts/a.html": new Uint8Array(3 * 1024 * 1024).fill(65) }, { level: 9 });
    // Lie in both headers: 10 bytes declared.
    const view = new DataView(zip.buffer);
    for (let i = 0; i + 4 < zip.length; i++) {
      const sig = view.getUint32(i, true);
      if (sig === 0x04034b50) view.setUint32(i + 22, 10, true);
      if (sig === 0x02014b50) view.setUint32(i + 24, 10, true);
    }
    const { error } = await refusal(fileOf(zip, "liar.zip"));
    expect(error).toBeInstanceOf(DomainError);
    expect(error!.kind).toBe("invalid");
  });
});

describe("bad CSV in a Substack zip is a 4xx, never a 500", () => {
  const cases: [string, string][] = [
    ["an unterminated quote", 'post_id,title,is_published\n"1,"Hello,true\n'],
    ["binary noise", "\u0000\u0001\u0002\uFFFD,\u0007\n\u0000"],
    ["no post_id column", "title,body\nHello,world\n"],
  ];
  for (const [what, csv] of cases)
    it(`refuses posts.csv with ${what}`, async () => {
      const zip = zipSync({ "posts.csv": enc(csv), "posts/1.html": enc("<p>Hi</p>") });
      const { error } = await refusal(fileOf(zip, "substack.zip"));
      expect(error).toBeInstanceOf(DomainError);
      expect(["invalid", "unsupported-type"]).toContain(error!.kind);
    });
});
