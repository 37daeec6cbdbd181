import { readFileSync } from "node:fs";
import path from "node:path";
import { zipSync } from "fflate";
import { expect, test } from "./fixtures";
import { lexicalPost, lexicalText as text } from "../fixtures/imports/ghost/lexical";
import { ACCOUNTS, importThroughApi, signIn } from "./support";

// Ghost's JSON (its html, its Lexical and its mobiledoc converters) and Medium's zip of HTML stories run
// here inside wrangler dev: the workers pool allows code generation from strings, production does not, so
// only this run proves the two importers work where they ship.
const FIXTURES = path.resolve("tests/fixtures/imports");

/** A Ghost 6 site in French (a Lexical post, a mobiledoc post and a draft), beside the real ghost.json's posts. */
function ghostExport(): Buffer {
  const real = JSON.parse(readFileSync(path.join(FIXTURES, "ghost/ghost.json"), "utf8")) as {
    db: { data: { posts: Record<string, unknown>[] } }[];
  };
  const base = { type: "post", visibility: "public", published_at: "2025-06-01T08:00:00.000Z", html: null };
  real.db[0]!.data.posts.push(
    {
      ...base,
      id: "fr-lexical",
      title: "L’été à Montréal",
      slug: "l-ete-a-montreal",
      status: "published",
      lexical: lexicalPost([
        {
          type: "paragraph",
          version: 1,
          children: [
            text("Il fait chaud, "),
            { type: "link", version: 1, url: "https://example.com/fr", children: [text("très chaud")] },
            text(" et "),
            text("déjà", 1),
          ],
        },
        { type: "markdown", version: 1, markdown: "## Où manger\n\n- crêpes\n- poutine" },
      ]),
    },
    {
      ...base,
      id: "old-mobiledoc",
      title: "Notes from Ghost 4",
      slug: "notes-from-ghost-4",
      status: "published",
      mobiledoc: JSON.stringify({
        version: "0.3.1",
        atoms: [],
        markups: [["strong"]],
        cards: [["code", { code: "const a = 1 < 2;", language: "js" }]],
        sections: [
          [1, "h2", [[0, [], 0, "A heading"]]],
          [
            1,
            "p",
            [
              [0, [0], 1, "Bold"],
              [0, [], 0, " words from mobiledoc."],
            ],
          ],
          [10, 0],
        ],
      }),
    },
    { ...base, id: "fr-draft", title: "Brouillon", slug: "brouillon", status: "draft", html: "<p>Pas encore.</p>" },
  );
  return Buffer.from(JSON.stringify(real));
}

/** A Medium export: two stories, a draft and a response to a reader (Medium keeps responses among the posts). */
function mediumExport(): Buffer {
  const read = (p: string) => readFileSync(path.join(FIXTURES, "medium", p));
  return Buffer.from(
    zipSync({
      "posts/2018-08-11_Basic-Post-Title-0a1b2c3d4e5f.html": read("posts/basic-post.html"),
      "posts/2018-08-12_Code-Post-1a2b3c4d5e6f.html": read("posts/code-post.html"),
      "posts/draft_Draft-Post-2a3b4c5d6e7f.html": read("posts/draft-post.html"),
      "posts/2024-06-03_This-is-a-comment-a1b2c3d4e5f6.html": read("more-posts/comment.html"),
      "profile/profile.html": new TextEncoder().encode("<html><body><h3>Profile</h3></body></html>"),
    }),
  );
}

/**
 * A Ghost export of a members' site, as Ghost writes one: each post's html (the paid post's preview ends at
 * Ghost's `<!--members-only-->` comment) beside its Lexical (the same place: a paywall card), and its visibility.
 * A fourth, paid post comes as Lexical only (no html), its paywall card the one place its preview ends.
 * Ids are the run's own, so a second run on the same server imports new posts.
 */
function ghostMembersExport(run: string) {
  const words = {
    free: `The free opening of the paid post ${run}.`,
    gated: `The paid paragraph of ${run}, for paying members only.`,
    members: `The members' post ${run}, for anyone signed in.`,
    open: `The public post ${run}, for everyone.`,
    lexicalFree: `The Lexical-only opening ${run}.`,
    lexicalGated: `The Lexical-only paid paragraph ${run}.`,
  };
  const post = (id: string, title: string, visibility: string, html: string | null, lexical: unknown[]) => ({
    id: `${id}-${run}`,
    uuid: `${id}-${run}`,
    type: "post",
    status: "published",
    published_at: "2025-06-01T08:00:00.000Z",
    title: `${title} ${run}`,
    slug: `${id}-${run}`,
    visibility,
    html,
    lexical: lexicalPost(lexical),
  });
  const paragraph = (words: string) => ({ type: "paragraph", version: 1, children: [text(words)] });
  const data = {
    db: [
      {
        meta: { exported_on: Date.now(), version: "5.90.0" },
        data: {
          posts: [
            post("paid", "A paid post", "paid", `<p>${words.free}</p><!--members-only--><p>${words.gated}</p>`, [
              paragraph(words.free),
              { type: "paywall", version: 1 },
              paragraph(words.gated),
            ]),
            post("members", "A members' post", "members", `<p>${words.members}</p>`, [paragraph(words.members)]),
            post("public", "A public post", "public", `<p>${words.open}</p>`, [paragraph(words.open)]),
            post("lexical", "A Lexical paid post", "paid", null, [
              paragraph(words.lexicalFree),
              { type: "paywall", version: 1 },
              paragraph(words.lexicalGated),
            ]),
          ],
          users: [],
          tags: [],
          posts_authors: [],
          posts_tags: [],
        },
      },
    ],
  };
  return { words, buffer: Buffer.from(JSON.stringify(data)) };
}

test.describe("Ghost and Medium imports through wrangler dev", () => {
  test.setTimeout(120_000);

  test("a Ghost 6 export: html, Lexical and mobiledoc posts arrive readable, the draft stays private", async ({
    page,
    browser,
  }) => {
    await signIn(page, ACCOUNTS.admin);
    const { job, items } = await importThroughApi(page, {
      name: "ghost-export.json",
      mimeType: "application/json",
      buffer: ghostExport(),
    });
    expect(job.platform).toBe("ghost");
    expect(items.map((i) => [i.title, i.state])).toEqual(
      expect.arrayContaining([
        ["Post 1", "done"],
        ["L’été à Montréal", "done"],
        ["Notes from Ghost 4", "done"],
        ["Brouillon", "done"],
      ]),
    );

    // A visitor (no session) reads the Lexical post as a page, with its French text, link and Markdown card.
    const visitor = await browser.newPage();
    const lexical = items.find((i) => i.title === "L’été à Montréal")!;
    await visitor.goto(`/blogs/${lexical.blogId}`);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("L’été à Montréal");
    await expect(visitor.getByRole("link", { name: "très chaud" })).toHaveAttribute("href", "https://example.com/fr");
    await expect(visitor.getByRole("heading", { name: "Où manger" })).toBeVisible();
    await expect(visitor.getByRole("listitem").filter({ hasText: "poutine" })).toBeVisible();

    const mobiledoc = items.find((i) => i.title === "Notes from Ghost 4")!;
    await visitor.goto(`/blogs/${mobiledoc.blogId}`);
    await expect(visitor.getByRole("heading", { name: "A heading" })).toBeVisible();
    await expect(visitor.locator("code").filter({ hasText: "const a = 1 < 2;" })).toBeVisible();

    // The draft came in as a draft: no visitor can read it.
    const draft = items.find((i) => i.title === "Brouillon")!;
    expect((await visitor.request.get(`/api/blogs/${draft.blogId}`)).status()).toBe(404);
    await visitor.close();
  });

  test("a Ghost members' site: paid, members' and public posts keep their visibility, the paid one its preview", async ({
    page,
    browser,
  }) => {
    await signIn(page, ACCOUNTS.admin);
    const run = Date.now().toString(36);
    const { words, buffer } = ghostMembersExport(run);
    const { job, items } = await importThroughApi(page, {
      name: "ghost-members.json",
      mimeType: "application/json",
      buffer,
    });
    expect(job.platform).toBe("ghost");
    const byTitle = Object.fromEntries(items.map((i) => [i.title, i]));
    const ids = {
      paid: byTitle[`A paid post ${run}`]?.blogId,
      members: byTitle[`A members' post ${run}`]?.blogId,
      open: byTitle[`A public post ${run}`]?.blogId,
      lexical: byTitle[`A Lexical paid post ${run}`]?.blogId,
    };
    expect(Object.values(ids).every(Boolean), JSON.stringify(items)).toBe(true);

    // The admin's REST record: each post's visibility, and the paid post whole (the admin reads everything).
    const record = async (id: string) =>
      (await (await page.request.get(`/api/blogs/${id}`)).json()) as { visibility: string; blog_details: string };
    expect((await record(ids.members!)).visibility).toBe("members");
    expect((await record(ids.open!)).visibility).toBe("public");
    const paid = await record(ids.paid!);
    expect(paid.visibility).toBe("paid");
    expect(paid.blog_details).toContain(words.free);
    expect(paid.blog_details).toContain(words.gated);
    await page.goto(`/blogs/${ids.paid}`);
    await expect(page.getByText(words.gated)).toBeVisible();
    await expect(page.locator("[data-members-cta]")).toHaveCount(0);

    // A visitor's page: the text above Ghost's marker and the call to join; the paid paragraph is nowhere in it.
    const visitor = await browser.newPage();
    const html = await (await visitor.request.get(`/blogs/${ids.paid}`)).text();
    expect(html).toContain(words.free);
    expect(html).not.toContain(words.gated);
    expect(html).toContain("The rest of this post is for paying members");
    const api = await (await visitor.request.get(`/api/blogs/${ids.paid}`)).text();
    expect(api).not.toContain(words.gated);
    await visitor.goto(`/blogs/${ids.paid}`);
    // The opening is both the post's lead line (its description, taken from the free part) and its text.
    await expect(visitor.getByText(words.free)).toHaveCount(2);
    await expect(visitor.locator("[data-members-cta]").getByRole("link", { name: "See the plans" })).toBeVisible();
    // The members' post asks a visitor to sign in (its text is not even its lead line); the public post is
    // whole for everyone (lead line and text).
    await visitor.goto(`/blogs/${ids.members}`);
    await expect(visitor.locator("[data-members-cta]")).toContainText("The rest of this post is for members");
    await expect(visitor.getByText(words.members)).toHaveCount(0);
    await visitor.goto(`/blogs/${ids.open}`);
    await expect(visitor.getByText(words.open)).toHaveCount(2);
    await expect(visitor.locator("[data-members-cta]")).toHaveCount(0);
    // The Lexical-only paid post: its paywall card cut the preview the same way.
    expect((await record(ids.lexical!)).visibility).toBe("paid");
    const lexicalPage = await (await visitor.request.get(`/blogs/${ids.lexical}`)).text();
    expect(lexicalPage).toContain(words.lexicalFree);
    expect(lexicalPage).not.toContain(words.lexicalGated);
    expect(lexicalPage).toContain("The rest of this post is for paying members");
    await visitor.close();
  });

  test("a Medium export: stories are published, the draft and the response to a reader stay drafts", async ({
    page,
    browser,
  }) => {
    await signIn(page, ACCOUNTS.admin);
    const { job, items } = await importThroughApi(page, {
      name: "medium-export.zip",
      mimeType: "application/zip",
      buffer: mediumExport(),
    });
    expect(job.platform).toBe("medium");
    const byTitle = Object.fromEntries(items.map((i) => [i.title, i]));
    for (const title of ["Basic Post Title", "This is a comment"]) expect(byTitle[title]?.state, title).toBe("done");

    const visitor = await browser.newPage();
    const story = byTitle["Basic Post Title"]!;
    await visitor.goto(`/blogs/${story.blogId}`);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Basic Post Title");
    await expect(visitor.getByText("This is a paragraph of text and stuff.")).toBeVisible();
    // The response to a reader is kept as the writer's draft, never published.
    const response = await visitor.request.get(`/api/blogs/${byTitle["This is a comment"]!.blogId}`);
    expect(response.status()).toBe(404);
    await visitor.close();
  });
});
