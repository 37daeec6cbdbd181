import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fileOf, importHarness, importAdmin, stubImageFetchEachTest } from "../support/imports";
// Ghost's migration tools' WXR sample (github.com/TryGhost/migrate, packages/mg-wp-xml/test/fixtures/sample.xml).
import sample from "../fixtures/imports/wordpress/sample.xml?raw";
// WordPress's own theme unit test data (github.com/WPTT/theme-unit-test).
import themeUnitTest from "../fixtures/imports/wordpress/themeunittestdata.wordpress.xml?raw";
// Ghost's migration tools' JSON fixture (github.com/TryGhost/migrate).
import ghostJson from "../fixtures/imports/ghost/ghost.json?raw";

stubImageFetchEachTest();

const site = (name: string) =>
  sample.replace("<link>https://example.com</link>", `<link>https://${name}.example</link>`);

async function postsOf(jobId: string) {
  const { results } = await env.DB.prepare(
    `select b.id, b.title, b.category, b.tags from import_items i join blogs b on b.id = i.blog_id
     where i.job_id = ? and i.state = 'done' order by i.seq`,
  )
    .bind(jobId)
    .all<{ id: string; title: string; category: string; tags: string }>();
  return results;
}

async function tagRows(blogId: string) {
  const { results } = await env.DB.prepare("select tag, name from blog_tags where blog_id = ? order by tag")
    .bind(blogId)
    .all<{ tag: string; name: string }>();
  return results.map((r) => `${r.tag}=${r.name}`);
}

describe("imported tags become the posts' tags", () => {
  it("WXR tags and categories: as spelled there, the filed category left out, on the post and in blog_tags", async () => {
    const { jobId } = await importHarness().importFile(await importAdmin(), fileOf(site("tags-a"), "sample.xml"));
    const basic = (await postsOf(jobId)).find((p) => p.title === "Basic Post")!;
    // <category domain="post_tag">Has Images, Programming; domain="category">Company News (not one of ours).
    expect(basic.category).toBe("Lifestyle");
    expect(basic.tags).toBe("Has Images,Programming,Company News");
    expect(await tagRows(basic.id)).toEqual([
      "company-news=Company News",
      "has-images=Has Images",
      "programming=Programming",
    ]);
    // The tag's page finds the post (the tags read blog_tags).
    const page = await env.DB.prepare("select blog_id from blog_tags where tag = 'has-images' and blog_id = ?")
      .bind(basic.id)
      .first();
    expect(page).not.toBeNull();
  });

  it("keeps five at most and reports the rest", async () => {
    const many = Array.from(
      { length: 8 },
      (_, i) => `<category domain="post_tag"><![CDATA[Topic ${i + 1}]]></category>`,
    );
    const file = site("tags-b").replace(
      '<category domain="post_tag" nicename="has-images"><![CDATA[Has Images]]></category>',
      many.join(""),
    );
    const { jobId, view } = await importHarness().importFile(await importAdmin(), fileOf(file, "sample.xml"), "site", {
      map: { "Company News": "Technology" },
    });
    const basic = (await postsOf(jobId)).find((p) => p.title === "Basic Post")!;
    expect(basic.category).toBe("Technology");
    expect(basic.tags.split(",")).toEqual(["Topic 1", "Topic 2", "Topic 3", "Topic 4", "Topic 5"]);
    const item = view.report.items.find((i) => i.title === "Basic Post")!;
    expect(item.note.tagsDropped).toEqual(["Topic 6", "Topic 7", "Topic 8", "Programming", "Company News"]);
  });

  it("Ghost tags: a tag naming one of our categories files the post; the others are its tags", async () => {
    const { jobId } = await importHarness().importFile(await importAdmin(), fileOf(ghostJson, "ghost.json"));
    const posts = await postsOf(jobId);
    const post1 = posts.find((p) => p.title === "Post 1")!;
    expect(post1.tags).toBe("News");
    expect(await tagRows(post1.id)).toEqual(["news=News"]);
    const post2 = posts.find((p) => p.title === "Post 2")!;
    expect(post2.category).toBe("Technology");
    expect(post2.tags).toBe("");
  });
});

describe("tags in any script arrive (they were all dropped before)", () => {
  it("a Chinese blog's and a Greek blog's tags: kept as written, on the post, in blog_tags and on /tags", async () => {
    const file = site("tags-c").replace(
      '<category domain="post_tag" nicename="has-images"><![CDATA[Has Images]]></category>',
      [
        '<category domain="post_tag" nicename="%e6%95%b0%e6%8d%ae%e5%ba%93"><![CDATA[数据库]]></category>',
        '<category domain="post_tag" nicename="%ce%b5%ce%bb%ce%bb%ce%b7%ce%bd%ce%b9%ce%ba%ce%ac"><![CDATA[Ελληνικά]]></category>',
        '<category domain="post_tag" nicename="rocket"><![CDATA[🚀]]></category>',
      ].join(""),
    );
    const { jobId, view } = await importHarness().importFile(await importAdmin(), fileOf(file, "sample.xml"));
    const basic = (await postsOf(jobId)).find((p) => p.title === "Basic Post")!;
    expect(basic.tags).toBe("数据库,Ελληνικά,Programming,Company News");
    expect(await tagRows(basic.id)).toEqual([
      "company-news=Company News",
      "programming=Programming",
      "ελληνικά=Ελληνικά",
      "数据库=数据库",
    ]);
    // Only the tag with no letter or digit in any script is reported.
    const item = view.report.items.find((i) => i.title === "Basic Post")!;
    expect(item.note.tags).toEqual(["数据库", "Ελληνικά", "Programming", "Company News"]);
    expect(item.note.tagsDropped).toEqual(["🚀"]);
    const services = importHarness().services();
    expect(await services.tags.find("数据库")).toMatchObject({ tag: "数据库", name: "数据库" });
    expect(await services.tags.find("ΕΛΛΗΝΙΚΆ")).toMatchObject({ tag: "ελληνικά", name: "Ελληνικά" });
  });
});

describe("pages are skipped, and counted as skipped in the preview and the ledger", () => {
  it("WXR: the page is not a post, the preview counts it, the report lists it skipped, the job counts it", async () => {
    const actor = await importAdmin();
    const h = importHarness();
    const { jobId } = await h.services().imports.start(actor, fileOf(site("pages-a"), "sample.xml"), "site");
    const preview = await h.services().imports.get(actor, jobId);
    expect(preview.summary.pages).toBe(1);
    expect(preview.job.skipped).toBe(1);
    const { view } = await h.importFile(actor, fileOf(site("pages-b"), "sample.xml"));
    const page = view.report.items.find((i) => i.title === "Services")!;
    expect(page.state).toBe("skipped");
    expect(page.note.reason).toBe("a page (this site has posts only)");
    expect(page.blogId).toBeNull();
    expect(view.job.skipped).toBe(1);
    expect(view.job.done).toBe(view.job.total);
    expect(view.job.imported + view.job.skipped + view.job.failed).toBe(view.job.total);
    const titles = await env.DB.prepare("select count(*) as n from blogs where title = 'Services'").first<{
      n: number;
    }>();
    expect(titles!.n).toBe(0);
  });

  it("the theme unit test's pages: every published or draft page counted, none imported", async () => {
    const field = (item: string, name: string) =>
      new RegExp(`<wp:${name}>(?:<!\\[CDATA\\[)?([a-z_]+)`).exec(item)?.[1] ?? "";
    const pages = themeUnitTest
      .split("<item>")
      .filter(
        (i) =>
          field(i, "post_type") === "page" &&
          ["publish", "draft", "pending", "private", "future"].includes(field(i, "status")),
      ).length;
    expect(pages).toBeGreaterThan(10);
    const { view } = await importHarness().importFile(await importAdmin(), fileOf(themeUnitTest, "theme.xml"));
    expect(view.summary.pages).toBe(pages);
    expect(view.job.skipped).toBeGreaterThanOrEqual(pages);
    expect(view.job.imported + view.job.skipped + view.job.failed).toBe(view.job.total);
  }, 120_000);
});
