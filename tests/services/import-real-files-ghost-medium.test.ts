import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseGhost } from "#worker/services/import/ghost.ts";
import { fileOf, importedBlogs, importHarness, importAdmin, stubImageFetchEachTest } from "../support/imports";
// Real files other projects keep as test data (origins in tests/fixtures/imports/README.md): a Ghost 0.x
// export (jbarone/ghostToHugo), a Ghost export without the db wrapper and two Medium posts (TryGhost/migrate).
import ghost0x from "../fixtures/imports/ghost/ghosttohugo-unwrapped.json?raw";
import ghostFlat from "../fixtures/imports/ghost/ghost-flat.json?raw";
import mediumComment from "../fixtures/imports/medium/more-posts/comment.html?raw";
import mediumShort from "../fixtures/imports/medium/more-posts/short-post.html?raw";
// Substack's layout as Ghost's Substack migrator tests it (TryGhost/migrate mg-substack).
import substackCsv from "../fixtures/imports/substack/posts.csv?raw";
import sub1 from "../fixtures/imports/substack/posts/123401.plain-text.html?raw";
import sub4 from "../fixtures/imports/substack/posts/123404.draft-text.html?raw";
import sub5 from "../fixtures/imports/substack/posts/123405.about-us.html?raw";
import { lexicalPost, lexicalText as text } from "../fixtures/imports/ghost/lexical";

const fetches = stubImageFetchEachTest();

type GhostFile = { data: { posts: Record<string, unknown>[] } };

describe("Ghost exports of other versions", () => {
  it("Ghost 0.x ({meta, data} at the root, times in milliseconds): its date, author, tag and body", async () => {
    const actor = await importAdmin();
    const { view, jobId } = await importHarness().importFile(actor, fileOf(ghost0x, "ghost-0.x.json"));
    expect(view.job.platform).toBe("ghost");
    expect(view.summary).toMatchObject({ posts: 1, drafts: 0, pages: 0 });
    const [row] = await importedBlogs(jobId);
    expect(row!.title).toBe("my blog post title");
    expect(row!.status).toBe("published");
    // "published_at": 1283780649000
    expect(row!.date_time).toBe("2010-09-06T13:44:09.000Z");
    expect([row!.author_name, row!.email]).toEqual(["user's name", "user@example.com"]);
    // The tag as Ghost spells it; its slug is colorado-ho.
    expect(row!.tags).toBe("Colorado Ho!");
    expect(row!.blog_details).toBe("the _html_ formatted post body");
  });

  it("Ghost 0.x to 2: a page is `page: 1`, and a post exported without html keeps its Markdown", () => {
    const asPage = JSON.parse(ghost0x) as GhostFile;
    asPage.data.posts[0]!.page = 1;
    const parsedPage = parseGhost(asPage);
    expect(parsedPage.posts).toHaveLength(0);
    expect(parsedPage.skipped.map((s) => s.title)).toEqual(["my blog post title"]);

    const noHtml = JSON.parse(ghost0x) as GhostFile;
    noHtml.data.posts[0]!.html = null;
    expect(parseGhost(noHtml).posts[0]!.markdown).toBe("the *markdown* formatted post body");
  });

  it("Ghost 1 to 4: a post exported with only its mobiledoc keeps headings, lists, links, code and cards", () => {
    const file = JSON.parse(ghost0x) as GhostFile;
    const post = file.data.posts[0]!;
    delete post.html;
    delete post.markdown;
    post.mobiledoc = JSON.stringify({
      version: "0.3.1",
      atoms: [["soft-return", "", {}]],
      markups: [["a", ["href", "https://ghost.org/docs/"]], ["strong"], ["code"]],
      cards: [
        ["card-markdown", { cardName: "card-markdown", markdown: "Some *markdown* card." }],
        ["code", { code: "const a = 1 < 2;", language: "js" }],
        ["image", { src: "https://example.com/content/images/photo.jpg", alt: "A photo", caption: "By <a>me</a>" }],
      ],
      sections: [
        [1, "h2", [[0, [], 0, "A heading"]]],
        [
          1,
          "p",
          [
            [0, [1], 1, "Bold"],
            [0, [], 0, " and "],
            [0, [0], 1, "a link"],
            [1, [], 0, 0],
            [0, [2], 1, "x < y"],
          ],
        ],
        [3, "ul", [[[0, [], 0, "one"]], [[0, [], 0, "two"]]]],
        [10, 0],
        [10, 1],
        [10, 2],
      ],
    });
    const markdown = parseGhost(file).posts[0]!.markdown;
    expect(markdown).toContain("## A heading");
    expect(markdown).toContain("**Bold** and [a link](https://ghost.org/docs/)");
    expect(markdown).toContain("`x < y`");
    expect(markdown).toMatch(/^-\s+one\n-\s+two$/m);
    expect(markdown).toContain("Some *markdown* card.");
    expect(markdown).toContain("```js\nconst a = 1 < 2;\n```");
    expect(markdown).toContain("![A photo](https://example.com/content/images/photo.jpg)\n\n*By me*");
  });

  it("Ghost 5: a post exported with only its lexical keeps its text (Ghost writes 'extended-text' nodes) and cards", () => {
    const file = JSON.parse(ghostFlat) as GhostFile;
    const post = file.data.posts[0]!;
    post.html = null;
    // The first paragraph of a post in Ghost's own editor format, as TryGhost/migrate keeps it
    // (packages/mg-linkfixer/test/fixtures/ctx-lexical.json), then a Markdown card and a callout.
    post.lexical = lexicalPost([
      {
        type: "paragraph",
        version: 1,
        children: [
          text("Lorem ipsum "),
          { type: "link", version: 1, url: "https://example.com/lorem-ipsum/", children: [text("dolor sit amet")] },
          text(", consectetur "),
          text("bold", 1),
        ],
      },
      { type: "markdown", version: 1, markdown: "## A Markdown card\n\n- one\n- two" },
      { type: "callout", version: 1, calloutText: "<p>Heads <b>up</b></p>", calloutEmoji: "💡" },
    ]);
    const markdown = parseGhost(file).posts[0]!.markdown;
    expect(markdown).toContain("Lorem ipsum [dolor sit amet](https://example.com/lorem-ipsum/), consectetur **bold**");
    expect(markdown).toContain("## A Markdown card\n\n- one\n- two");
    expect(markdown).toContain("> Heads **up**");
  });

  it("a Ghost export without the db wrapper: its post, feature image and the image in its body", async () => {
    const actor = await importAdmin();
    const { view, jobId } = await importHarness().importFile(actor, fileOf(ghostFlat, "ghost-flat.json"));
    expect(view.job.imported).toBe(1);
    const [row] = await importedBlogs(jobId);
    expect([row!.title, row!.status, row!.date_time]).toEqual([
      "Flat Format Post",
      "published",
      "2025-01-01T00:00:00.000Z",
    ]);
    // No users in the file: the post is the importing admin's.
    expect(row!.email).toBe(actor.email);
    expect(fetches.urls).toEqual(
      expect.arrayContaining([
        "https://example.com/images/flat-feature.jpg",
        "https://example.com/images/flat-post.jpg",
      ]),
    );
    expect(row!.image).toMatch(/^\/images\//);
    expect(row!.blog_details).toMatch(/^An image: !\[[^\]]*\]\(\/images\/[^)]+\)$/);
  });
});

describe("Medium exports", () => {
  it("a response (Medium keeps the writer's comments among the posts) comes in as a draft; a story is published", async () => {
    const zip = zipSync({
      "posts/2024-06-03_This-is-a-comment-a1b2c3d4e5f6.html": new TextEncoder().encode(mediumComment),
      "posts/2018-08-11_Short-Post-Title-efefef12121212.html": new TextEncoder().encode(mediumShort),
    });
    const { view, jobId } = await importHarness().importFile(await importAdmin(), fileOf(zip, "medium-export.zip"));
    expect(view.summary).toMatchObject({ posts: 2, drafts: 1 });
    const rows = await importedBlogs(jobId);
    const byTitle = Object.fromEntries(rows.map((r) => [r.title, r]));
    expect(byTitle["This is a comment"]!.status).toBe("draft");
    const story = byTitle["Short Post Title"]!;
    expect([story.status, story.date_time, story.tags]).toEqual([
      "published",
      "2018-08-11T11:23:34.123Z",
      "Things,Stuff",
    ]);
    expect(story.blog_details).toContain("This is a paragraph of text and stuff.");
    expect(story.blog_details).not.toContain("Short Post Title");
    expect(fetches.urls).toContain("https://cdn-images-1.medium.com/max/2000/abc123.jpeg");
    // The image's caption stays under it.
    expect(story.blog_details).toMatch(
      /!\[This is image alt text\]\(\/images\/[^)]+\)\n\n\*This is an image caption\*/,
    );
  });
});

describe("Substack exports", () => {
  it("titles and subtitles in posts.csv are written with character references: they arrive as text", async () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    // The rows whose HTML is in the archive (the others are reported as missing their file).
    const zip = zipSync({
      "posts.csv": enc(substackCsv),
      "posts/123401.plain-text.html": enc(sub1),
      "posts/123404.draft-text.html": enc(sub4),
      "posts/123405.about-us.html": enc(sub5),
    });
    const { view, jobId } = await importHarness().importFile(await importAdmin(), fileOf(zip, "substack.zip"));
    expect(view.summary).toMatchObject({ posts: 2, drafts: 1, pages: 1 });
    const rows = await importedBlogs(jobId);
    expect(rows.map((r) => [r.title, r.status, r.date_time])).toEqual([
      ["Plain Text", "published", "2019-07-26T20:48:19.814Z"],
      ["Plain Text", "draft", "2022-08-13T12:11:23.230Z"],
    ]);
    // posts.csv: "&#x201C;This quote&#x2019;s rather short&#x201D;"
    expect(rows[0]!.short_description).toBe("\u201CThis quote\u2019s rather short\u201D");
  });
});
