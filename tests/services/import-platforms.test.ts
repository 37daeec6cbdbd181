import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { makeUser } from "../support/factories";
import { fileOf, importHarness, importAdmin, stubImageFetchEachTest } from "../support/imports";
// Fixtures of Ghost's migration tools (github.com/TryGhost/migrate): mg-assetscraper-db (Ghost JSON),
// mg-medium-export (Medium posts), mg-substack and mg-substack-members-csv (Substack).
import ghostJson from "../fixtures/imports/ghost/ghost.json?raw";
import mediumAdvanced from "../fixtures/imports/medium/posts/advanced-post.html?raw";
import mediumBasic from "../fixtures/imports/medium/posts/basic-post.html?raw";
import mediumCode from "../fixtures/imports/medium/posts/code-post.html?raw";
import mediumDraft from "../fixtures/imports/medium/posts/draft-post.html?raw";
import mediumQuote from "../fixtures/imports/medium/posts/quote-post.html?raw";
import substackCsv from "../fixtures/imports/substack/posts.csv?raw";
import substackSubscribers from "../fixtures/imports/substack/email_list.fixtures.csv?raw";
import sub1 from "../fixtures/imports/substack/posts/123401.plain-text.html?raw";
import sub2 from "../fixtures/imports/substack/posts/123402.podcast.html?raw";
import sub3 from "../fixtures/imports/substack/posts/123403.thread.html?raw";
import sub4 from "../fixtures/imports/substack/posts/123404.draft-text.html?raw";
import sub5 from "../fixtures/imports/substack/posts/123405.about-us.html?raw";
import { PNG } from "../support/pages";

const enc = (s: string) => new TextEncoder().encode(s);
const blogsOf = (jobId: string) =>
  env.DB.prepare(
    "select b.* from blogs b join import_items i on i.blog_id = b.id where i.job_id = ? and i.state = 'done' order by i.seq",
  )
    .bind(jobId)
    .all<{ title: string; status: string; blog_details: string; image: string; category: string; email: string }>()
    .then((r) => r.results);

const fetches = stubImageFetchEachTest();

describe("Ghost, Medium and Substack imports", () => {
  it("Ghost JSON: posts with html, status, feature images, tags and authors by email", async () => {
    const data = JSON.parse(ghostJson) as { db: { data: { posts: { status: string; type?: string }[] } }[] };
    const posts = data.db[0]!.data.posts.filter((p) => p.type !== "page");
    const h = importHarness();
    const { view, jobId } = await h.importFile(await importAdmin(), fileOf(ghostJson, "ghost.json"));
    expect(view.job.platform).toBe("ghost");
    expect(view.job.imported).toBe(posts.length);
    const rows = await blogsOf(jobId);
    expect(rows.map((r) => r.status)).toEqual(posts.map((p) => (p.status === "published" ? "published" : "draft")));
    expect(rows[0]!.blog_details).toContain("Hello world");
    expect(rows[0]!.blog_details).toMatch(/!\[[^\]]*\]\(\/images\/[^)]+\)/);
    expect(rows[0]!.image).toMatch(/^\/images\//);
    expect(fetches.urls).toContain("https://example.com/images/feature-1.jpg");
  });

  it("Medium zip: published posts and the draft, microformats, code, quotes and images", async () => {
    const zip = zipSync({
      "posts/advanced-post.html": enc(mediumAdvanced),
      "posts/basic-post.html": enc(mediumBasic),
      "posts/code-post.html": enc(mediumCode),
      "posts/draft_draft-post.html": enc(mediumDraft),
      "posts/quote-post.html": enc(mediumQuote),
      "profile/profile.html": enc("<html></html>"),
    });
    const h = importHarness();
    const { view, jobId } = await h.importFile(await importAdmin(), fileOf(zip, "medium-export.zip"));
    expect(view.job.platform).toBe("medium");
    expect(view.job.imported).toBe(5);
    const rows = await blogsOf(jobId);
    const basic = rows.find((r) => r.title === "Basic Post Title")!;
    expect(basic.status).toBe("published");
    expect(basic.blog_details).toContain("This is a paragraph of text and stuff.");
    // The title is not repeated inside the body.
    expect(basic.blog_details).not.toContain("Basic Post Title");
    expect(rows.filter((r) => r.status === "draft")).toHaveLength(1);
    expect(rows.map((r) => r.blog_details).join("\n")).toContain("```");
    expect(rows.map((r) => r.blog_details).join("\n")).toMatch(/^> /m);
    expect(fetches.urls.some((u) => u.startsWith("https://cdn-images-1.medium.com/"))).toBe(true);
  });

  it("Medium zip: an image inside the archive is copied from it, not fetched", async () => {
    const html = mediumBasic.replace(
      "This is a paragraph of text and stuff.",
      'This is a paragraph of text and stuff.</p><figure><img src="../images/local.png" alt="Local"></figure><p>',
    );
    const zip = zipSync({ "posts/local-image.html": enc(html), "images/local.png": PNG });
    const h = importHarness();
    const { view, jobId } = await h.importFile(await importAdmin(), fileOf(zip, "medium.zip"));
    expect(view.job.imagesDone).toBe(1);
    expect(view.job.imagesFailed).toBe(0);
    expect(fetches.urls).toHaveLength(0);
    const [row] = await blogsOf(jobId);
    const key = /!\[Local\]\(\/images\/([^)]+)\)/.exec(row!.blog_details)![1]!;
    expect(await env.IMAGES.head(key)).not.toBeNull();
  });

  it("Substack zip: posts.csv with its HTML files, and subscribers confirmed without an opt-in mail", async () => {
    const zip = zipSync({
      "posts.csv": enc(substackCsv),
      "posts/123401.plain-text.html": enc(sub1),
      "posts/123402.podcast.html": enc(sub2),
      "posts/123403.thread.html": enc(sub3),
      "posts/123404.draft-text.html": enc(sub4),
      "posts/123405.about-us.html": enc(sub5),
      "email_list.fixtures.csv": enc(substackSubscribers),
    });
    const pending = "herroooo@substack.com";
    await env.DB.prepare("insert into newsletter_subscriptions (id, email, state) values (?, ?, 'pending')")
      .bind(crypto.randomUUID(), pending)
      .run();
    const outbox = async () =>
      (await env.DB.prepare("select count(*) as n from mail_outbox").first<{ n: number }>())!.n;
    const mailsBefore = await outbox();
    const h = importHarness();
    const { view, jobId } = await h.importFile(await importAdmin(), fileOf(zip, "substack.zip"));
    expect(view.job.platform).toBe("substack");
    // Four posts (the "page" row is reported, not imported), one of them a draft.
    expect(view.job.imported).toBe(4);
    expect(view.summary.skipped.some((s) => s.title === "About Us")).toBe(true);
    const rows = await blogsOf(jobId);
    expect(rows.filter((r) => r.status === "draft")).toHaveLength(1);
    expect(rows[0]!.blog_details).toContain("## Lorem Ipsum");
    const confirmed = await env.DB.prepare(
      "select email, state from newsletter_subscriptions where email in ('herroooo@substack.com', 'testing@substacks.com', 'maguirec086@comm.ca')",
    ).all<{ email: string; state: string }>();
    const state = Object.fromEntries(confirmed.results.map((r) => [r.email, r.state]));
    expect(state[pending]).toBe("confirmed");
    expect(state["testing@substacks.com"]).toBe("confirmed");
    // Substack had disabled this one's email: left out, and reported.
    expect(state["maguirec086@comm.ca"]).toBeUndefined();
    expect(await outbox()).toBe(mailsBefore);
  });

  it("a writer's own import makes every post theirs and leaves subscribers out", async () => {
    const u = await makeUser();
    const writer = { id: u.id, name: u.name, email: u.email, role: "user" as const, photoURL: null };
    const h = importHarness();
    // Another publication's post (its own id), so nothing here was imported by an earlier test.
    const csv = substackCsv.replaceAll("123401.", "777401.");
    const zip = zipSync({
      "posts.csv": enc(csv),
      "posts/777401.plain-text.html": enc(sub1),
      "email_list.x.csv": enc(substackSubscribers),
    });
    const { view, jobId } = await h.importFile(writer, fileOf(zip, "substack.zip"), "own");
    expect(view.summary.subscribers).toBe(0);
    const rows = await blogsOf(jobId);
    expect(rows.length).toBe(1);
    expect(rows.every((r) => r.email === writer.email)).toBe(true);
    await expect(h.services().imports.start(writer, fileOf(zip, "substack.zip"), "site")).rejects.toThrow();
  });
});

describe("a stalled import", () => {
  it("is queued again by the minute cron when its message was lost", async () => {
    const h = importHarness();
    const actor = await importAdmin();
    const { jobId } = await h
      .services()
      .imports.start(actor, fileOf(ghostJson.replaceAll("Post 1", "Stalled post"), "g.json"), "site");
    await h.services().imports.confirm(actor, jobId, { default_category: "Lifestyle" });
    expect(h.sent).toHaveLength(1);
    // Nothing happened for ten minutes: the message is gone.
    expect(await h.services().importRunner.resumeStalled(Date.now() + 10 * 60_000)).toBe(1);
    expect(h.sent.at(-1)).toEqual({ kind: "import", jobId });
    expect(await h.services().importRunner.resumeStalled(Date.now())).toBe(0);
  });
});
