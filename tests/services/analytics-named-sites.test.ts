import { describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import { analyticsWorld, CHROME, hit, IPHONE } from "../support/analytics";
import { makeBlog, makeUser } from "../support/factories";

/** Issue 47: "social" and "search" hold the sites they group; a writer sees that Hacker News sent readers. */
describe("analytics: the sites behind a source group", () => {
  it("rolls up each site a group holds, for the writer's scope too", async () => {
    const w = analyticsWorld(10);
    const writer = await makeUser();
    const post = await makeBlog(writer);
    const reads: [string, string, string][] = [
      ["198.51.100.10", CHROME, "https://news.ycombinator.com/item?id=1"],
      ["198.51.100.11", IPHONE, "https://news.ycombinator.com/item?id=1"],
      ["198.51.100.12", CHROME, "https://www.reddit.com/r/webdev"],
      ["198.51.100.13", CHROME, "https://www.google.com/"],
      ["198.51.100.14", CHROME, "https://someones-blog.example/links"],
    ];
    for (const [ip, ua, referrer] of reads) await hit(w.env, { ip, ua }, `/blogs/${post.id}/x`, referrer);
    await w.queue.drain(w.env);
    const summary = await createServices(w.env).analytics.summary({ ...writer, photoURL: null }, {});
    const sources = Object.fromEntries(summary.sources.map((r) => [r.key, r.pageviews]));
    expect(sources).toMatchObject({ social: 3, search: 1, "someones-blog.example": 1 });
    const sites = Object.fromEntries(summary.sites.map((r) => [r.key, r.pageviews]));
    expect(sites).toEqual({ "social:news.ycombinator.com": 2, "social:reddit.com": 1, "search:google.com": 1 });
  });
});
