import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import { clearContent, makeBlog, makeUser } from "../support/factories";
import { call } from "../support/http";

const services = () => createServices(env);
const HOUR = 60 * 60 * 1000;

/**
 * The one visible-blogs rule: a draft, and a post scheduled for later, are read by no public query;
 * a scheduled post whose time has come is. (The editor and the scheduler write them; this pins the reader side.)
 */
describe("visible blogs", () => {
  let ids: { published: string; draft: string; later: string; due: string };

  beforeAll(async () => {
    await clearContent();
    const author = await makeUser({ name: "Vera" });
    ids = {
      published: (await makeBlog(author, { title: "Published post" })).id,
      draft: (await makeBlog(author, { title: "Draft post", status: "draft" })).id,
      later: (await makeBlog(author, { title: "Later post", status: "scheduled", publishAt: Date.now() + HOUR })).id,
      due: (await makeBlog(author, { title: "Due post", status: "scheduled", publishAt: Date.now() - 1000 })).id,
    };
  });

  const visibleTitles = ["Due post", "Published post"];

  it("lists only published and due posts in every service read", async () => {
    const s = services();
    const titles = (list: { title: string }[]) => list.map((b) => b.title).sort();
    expect(titles(await s.blogs.latest())).toEqual(visibleTitles);
    expect(titles((await s.blogs.list({})).items)).toEqual(visibleTitles);
    const page = await s.blogs.page({});
    expect(page.total).toBe(2);
    expect(titles((await s.home.load()).latest)).toEqual(visibleTitles);
    expect(titles((await s.feeds.latestForRss()).map((f) => ({ title: f.title })))).toEqual(visibleTitles);
    expect((await s.feeds.postsForSitemap()).map((p) => p.id).sort()).toEqual([ids.due, ids.published].sort());
    expect((await s.reading.listing(null, {})).results.total).toBe(2);
    await expect(s.blogs.byId(ids.draft)).rejects.toThrow("Blog not found.");
    await expect(s.blogs.byId(ids.later)).rejects.toThrow("Blog not found.");
    expect((await s.blogs.byId(ids.due)).title).toBe("Due post");
  });

  it("answers 404 for a draft's page and API record, and leaves it out of the feed", async () => {
    for (const path of [`/blogs/${ids.draft}`, `/api/blogs/${ids.draft}`, `/blogs/${ids.later}`]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      await res.body?.cancel();
    }
    const rss = await (await call("/rss.xml")).text();
    expect(rss).toContain("Published post");
    expect(rss).not.toContain("Draft post");
    expect(rss).not.toContain("Later post");
  });
});
