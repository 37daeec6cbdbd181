import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { IMAGE_FETCHES_PER_HOST } from "#worker/services/import/copier.ts";
import { PLACEHOLDER_URL } from "#worker/services/import/images.ts";
import { PNG } from "../support/pages";
import { fileOf, importAdmin, importedBlogs, importHarness } from "../support/imports";

const item = (id: number, html: string) =>
  `<item><title>Post ${id}</title><dc:creator>admin</dc:creator><content:encoded><![CDATA[${html}]]></content:encoded>` +
  `<wp:post_id>${id}</wp:post_id><wp:post_date_gmt>2021-05-01 10:00:00</wp:post_date_gmt><wp:status>publish</wp:status>` +
  `<wp:post_type>post</wp:post_type></item>`;
const wxr = (site: string, items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" ` +
  `xmlns:wp="http://wordpress.org/export/1.2/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>x</title>` +
  `<wp:base_site_url>https://${site}</wp:base_site_url>${items.join("")}</channel></rss>`;

/** A slow image server at the fetch boundary: each answer takes `ms`; counts what runs at once per host. */
function slowImages(ms: number, fail: (url: string) => boolean = () => false) {
  const active = new Map<string, number>();
  const peak = new Map<string, number>();
  const urls: string[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const host = new URL(url).host;
    urls.push(url);
    active.set(host, (active.get(host) ?? 0) + 1);
    peak.set(host, Math.max(peak.get(host) ?? 0, active.get(host)!));
    await new Promise((r) => setTimeout(r, ms));
    active.set(host, active.get(host)! - 1);
    if (fail(url)) return new Response("gone", { status: 404 });
    return new Response(PNG, { headers: { "content-type": "image/png" } });
  });
  return { urls, peak, restore: () => spy.mockRestore() };
}

describe("images are copied in parallel, politely, once each", () => {
  it("fetches at most six at once per host, reuses a copy across posts and batches, and beats fetching in turn", async () => {
    const site = `img-${crypto.randomUUID().slice(0, 8)}.example`;
    // 20 posts (two batches), each with 5 images of its own on two hosts and one image every post shares.
    const items = Array.from({ length: 20 }, (_, p) =>
      item(
        p + 1,
        Array.from(
          { length: 5 },
          (_, i) => `<p><img src="https://${i % 2 ? "a" : "b"}.${site}/p${p}-${i}.png"></p>`,
        ).join("") + `<p><img src="https://a.${site}/shared.png" alt="logo"></p>`,
      ),
    );
    // The same import with instant images first: what storing costs here, apart from fetching.
    const instant = slowImages(0);
    let base: number;
    try {
      const t0 = Date.now();
      await importHarness().importFile(
        await importAdmin(),
        fileOf(wxr(`base-${site}`, items).replaceAll(site, `base-${site}`), "b.xml"),
      );
      base = Date.now() - t0;
    } finally {
      instant.restore();
    }
    const server = slowImages(50);
    try {
      const started = Date.now();
      const { jobId, view } = await importHarness().importFile(await importAdmin(), fileOf(wxr(site, items), "s.xml"));
      const ms = Date.now() - started;
      expect(view.job.imported).toBe(20);
      expect(view.job.imagesFailed).toBe(0);
      // 101 distinct images, each fetched once (the shared one too, though 20 posts in two batches show it).
      expect(server.urls).toHaveLength(101);
      expect(server.urls.filter((u) => u.endsWith("/shared.png"))).toHaveLength(1);
      for (const n of server.peak.values()) expect(n).toBeLessThanOrEqual(IMAGE_FETCHES_PER_HOST);
      expect(Math.max(...server.peak.values())).toBe(IMAGE_FETCHES_PER_HOST);
      // In turn, 101 fetches of 50 ms would add over 5 s; six at a time on each of two hosts, about 0.5 s
      // (the peak above proves the concurrency; this margin leaves room for a busy 2-core CI machine).
      expect(ms - base).toBeLessThan(4000);
      const posts = await importedBlogs(jobId);
      expect(new Set(posts.map((p) => /!\[logo\]\(([^)]+)\)/.exec(p.blog_details)?.[1])).size).toBe(1);
      // The preview counted images as the report does: copied for each post that shows them.
      expect(view.summary.images).toBe(view.job.imagesDone + view.job.imagesFailed);
    } finally {
      server.restore();
    }
  }, 30_000);

  it("retries failed images: each one copied now replaces its placeholder, and the report is brought up to date", async () => {
    const site = `retry-${crypto.randomUUID().slice(0, 8)}.example`;
    const file = wxr(site, [
      item(
        1,
        `<p><img src="https://${site}/ok.png" alt="ok"></p><p><img src="https://${site}/later.png" alt="later"></p>`,
      ),
      item(2, `<p>Text.</p><p><img src="https://${site}/later2.png" alt="later too"></p>`),
    ]);
    const admin = await importAdmin();
    const h = importHarness();
    let down = slowImages(1, (u) => u.includes("/later"));
    let jobId: string;
    try {
      ({ jobId } = await h.importFile(admin, fileOf(file, "r.xml")));
    } finally {
      down.restore();
    }
    let view = await h.services().imports.get(admin, jobId);
    expect([view.job.imagesDone, view.job.imagesFailed]).toEqual([1, 2]);
    let posts = await importedBlogs(jobId);
    expect(posts[0]!.blog_details).toContain(`![later](${PLACEHOLDER_URL})`);

    down = slowImages(1);
    try {
      const result = await h.services().imports.retryImages(admin, jobId);
      expect(result).toEqual({ retried: 2, copied: 2, stillFailed: 0 });
      // Only the failed ones were fetched again.
      expect(down.urls.map((u) => new URL(u).pathname).sort()).toEqual(["/later.png", "/later2.png"]);
    } finally {
      down.restore();
    }
    view = await h.services().imports.get(admin, jobId);
    expect([view.job.imagesDone, view.job.imagesFailed]).toEqual([3, 0]);
    expect(view.report.items.every((i) => !("failedImages" in i.note))).toBe(true);
    posts = await importedBlogs(jobId);
    expect(posts[0]!.blog_details).toMatch(/!\[ok\]\(\/images\/[^)]+\)\n\n!\[later\]\(\/images\/[^)]+\)/);
    expect(posts[0]!.blog_details).not.toContain(PLACEHOLDER_URL);
    expect(posts[1]!.blog_details).not.toContain(PLACEHOLDER_URL);
    expect(posts[1]!.image).toMatch(/^\/images\/(?!import-placeholder)/);
    const stored = await env.DB.prepare("select count(*) as n from import_images where job_id = ? and path is not null")
      .bind(jobId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(3);
  });
});
