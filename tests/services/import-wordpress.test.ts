import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "#worker/content/markdown.ts";
import { parseExport } from "#worker/services/import/parse.ts";
import { db } from "../support/factories";
import { fileOf, importHarness, importAdmin, stubImageFetchEachTest } from "../support/imports";
// WordPress's own theme unit test data (github.com/WPTT/theme-unit-test, themeunittestdata.wordpress.xml).
import themeUnitTest from "../fixtures/imports/wordpress/themeunittestdata.wordpress.xml?raw";
// Ghost's migration tools' WXR sample (github.com/TryGhost/migrate, packages/mg-wp-xml/test/fixtures/sample.xml).
import sample from "../fixtures/imports/wordpress/sample.xml?raw";

/** The sample as if exported by another site, so each test imports records no other test has. */
const site = (name: string) =>
  sample.replace("<link>https://example.com</link>", `<link>https://${name}.example</link>`);

const count = async (table: string, where = "1 = 1") =>
  (await env.DB.prepare(`select count(*) as n from ${table} where ${where}`).first<{ n: number }>())?.n ?? 0;

const fetches = stubImageFetchEachTest();

describe("WordPress WXR import", () => {
  it("brings in the theme unit test's posts, drafts, comments and images in bounded batches", async () => {
    const parsed = parseExport(new TextEncoder().encode(themeUnitTest));
    const drafts = parsed.posts.filter((p) => p.status === "draft").length;
    const comments = parsed.posts.reduce((n, p) => n + p.comments.length, 0);
    // What the file holds, counted from its XML independently of the parser.
    const field = (item: string, name: string) =>
      new RegExp(`<wp:${name}>(?:<!\\[CDATA\\[)?([a-z_]+)`).exec(item)?.[1] ?? "";
    const postItems = themeUnitTest.split("<item>").filter((i) => field(i, "post_type") === "post");
    const keep = postItems.filter((i) =>
      ["publish", "draft", "pending", "private", "future"].includes(field(i, "status")),
    );
    expect(parsed.posts.length).toBe(keep.length);
    expect(parsed.posts.length).toBe(51);
    expect(drafts).toBe(keep.filter((i) => ["draft", "pending", "private"].includes(field(i, "status"))).length);
    expect(comments).toBeGreaterThan(0);

    const blogsBefore = await count("blogs");
    const h = importHarness();
    const actor = await importAdmin();
    const { view, batches } = await h.importFile(actor, fileOf(themeUnitTest, "theme.xml"));
    expect(view.job.status).toBe("done");
    // Pages are counted in the job (skipped, in the ledger), never imported.
    expect(view.job.total).toBe(parsed.posts.length + view.summary.pages);
    expect(view.job.done).toBe(view.job.total);
    expect(view.job.imported).toBe(parsed.posts.length);
    expect(batches).toBe(Math.ceil(parsed.posts.length / 10));
    expect(await count("blogs")).toBe(blogsBefore + parsed.posts.length);
    expect(
      await count(
        "blogs",
        `status = 'draft' and id in (select blog_id from import_items where job_id = '${view.job.id}')`,
      ),
    ).toBe(drafts);
    expect(
      await count("comments", `blog_id in (select blog_id from import_items where job_id = '${view.job.id}')`),
    ).toBe(comments);
    expect(view.job.imagesDone).toBeGreaterThan(0);
    expect(view.job.imagesDone + view.job.imagesFailed).toBeGreaterThan(10);
    // Imported posts never mail the newsletter.
    expect(
      await count(
        "blogs",
        `email_subscribers = 1 and id in (select blog_id from import_items where job_id = '${view.job.id}')`,
      ),
    ).toBe(0);
    expect(await count("mail_outbox", "kind like 'newsletter%'")).toBe(0);
    // Tags are reported (this site has none).
    expect(view.summary.tags.length).toBeGreaterThan(0);
  }, 60_000);

  it("keeps headings, lists, links, code and images, and maps categories, authors and featured images", async () => {
    const h = importHarness();
    const actor = await importAdmin();
    const { view } = await h.importFile(actor, fileOf(site("markdown"), "sample.xml"), "site", { map: {} });
    expect(view.job.failed).toBe(0);
    const rows = await db().query.blogs.findMany({
      where: (b, { inArray }) =>
        inArray(
          b.id,
          view.report.items.map((i) => i.blogId ?? ""),
        ),
    });
    expect(rows.length).toBe(view.job.imported);
    const all = rows.map((r) => r.blogDetails).join("\n\n");
    expect(all).toMatch(/^#{1,6} /m);
    // A post with an image has its copy as the cover; one with none has no cover (issue 47: no grey stand-in).
    expect(rows.some((r) => r.image.startsWith("/images/"))).toBe(true);
    for (const r of rows) {
      expect(r.image === "" || r.image.startsWith("/images/")).toBe(true);
      const html = renderMarkdown(r.blogDetails);
      expect(html).not.toContain("<script");
    }
    const authors = await env.DB.prepare(
      `select u.email, u.password_hash from users u join blogs b on b.author_id = u.id where b.id in (${rows.map(() => "?").join(",")})`,
    )
      .bind(...rows.map((r) => r.id))
      .all<{ email: string; password_hash: string | null }>();
    expect(authors.results.some((a) => a.email !== actor.email && a.password_hash === null)).toBe(true);
  });

  it("is idempotent: the same file again adds nothing", async () => {
    const h = importHarness();
    const actor = await importAdmin();
    const first = await h.importFile(actor, fileOf(site("twice"), "sample.xml"));
    const blogs = await count("blogs");
    const comments = await count("comments");
    const users = await count("users");
    const second = await h.importFile(actor, fileOf(site("twice"), "sample.xml"));
    expect(first.view.job.imported).toBeGreaterThan(0);
    expect(second.view.job.imported).toBe(0);
    expect(second.view.job.skipped).toBe(first.view.job.imported + second.view.summary.pages);
    expect(await count("blogs")).toBe(blogs);
    expect(await count("comments")).toBe(comments);
    expect(await count("users")).toBe(users);
    // A batch delivered twice finds nothing left to claim.
    expect((await h.services().importRunner.runBatch(second.jobId)).more).toBe(false);
  });

  it("reports a failed image and keeps a placeholder", async () => {
    fetches.failAll();
    const h = importHarness();
    const { view } = await h.importFile(await importAdmin(), fileOf(site("broken-images"), "sample.xml"));
    expect(view.job.imagesFailed).toBeGreaterThan(0);
    const withFailures = view.report.items.filter((i) => Array.isArray(i.note.failedImages));
    expect(withFailures.length).toBeGreaterThan(0);
    const post = await db().query.blogs.findFirst({ where: (b, { eq }) => eq(b.id, withFailures[0]!.blogId!) });
    expect(`${post?.image} ${post?.blogDetails}`).toContain("/images/import-placeholder.png");
    expect(await env.IMAGES.head("import-placeholder.png")).not.toBeNull();
  });
});
