import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createServices } from "#worker/services/index.ts";
import { asUser, makeUser } from "../support/factories";
import { call } from "../support/http";
import { stubImageFetchEachTest } from "../support/imports";
// Ghost's migration tools' JSON fixture (github.com/TryGhost/migrate).
import ghostJson from "../fixtures/imports/ghost/ghost.json?raw";

const fetches = stubImageFetchEachTest();

/** The fixture as another Ghost site's export: fresh ids, a page, and __GHOST_URL__ links between its posts. */
function ghostExport(name: string, origin?: string) {
  const data = JSON.parse(ghostJson) as {
    db: { meta: Record<string, unknown>; data: { posts: Record<string, unknown>[] } }[];
  };
  const db = data.db[0]!;
  if (origin) db.meta.url = origin;
  db.data.posts = db.data.posts.map((p, i) => ({ ...p, uuid: `${name}-${i}` }));
  const [first, second] = db.data.posts;
  first!.html =
    `<p>See <a href="__GHOST_URL__/${String(second!.slug)}/">the next one</a>, ` +
    `<a href="__GHOST_URL__/tag/getting-started/">a tag</a> and <a href="__GHOST_URL__/">home</a>.</p>` +
    `<img src="__GHOST_URL__/content/images/2024/01/photo.png" alt="photo">`;
  db.data.posts.push({ ...first, id: `${name}-page`, uuid: `${name}-page`, title: "About this site", type: "page" });
  return new File([JSON.stringify(data)], "ghost.json", { type: "application/json" });
}

const upload = (file: File, headers: Record<string, string>, query = "") => {
  const form = new FormData();
  form.set("file", file);
  return call(`/api/imports${query}`, { method: "POST", body: form, headers });
};

async function admin() {
  return asUser(await makeUser({ role: "admin", email: `admin-${crypto.randomUUID()}@example.com` }));
}

/**
 * Runs the job to its end. Starting it also queued a message for the Worker's own consumer, which may take
 * items at the same time (claims are atomic): wait for whichever finishes them.
 */
async function runAll(jobId: string) {
  const services = createServices(env);
  for (let i = 0; i < 100; i++) {
    if (!(await services.importRunner.runBatch(jobId)).more) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the import never finished");
}

/** Starts a previewed import (every category to Lifestyle) and runs it to its end. */
async function startAndRun(jobId: string, headers: Record<string, string>) {
  const start = await call(`/api/imports/${jobId}/start`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ default_category: "Lifestyle" }),
  });
  expect(start.status).toBe(202);
  await runAll(jobId);
}

type View = {
  job: { id: string; status: string; total: number; imported: number; skipped: number; done: number };
  summary: { posts: number; pages: number };
  report: { items: { title: string; state: string; blogId: string | null; note: Record<string, unknown> }[] };
};

describe("the imports JSON API", () => {
  it("upload (preview), start, then status and ledger: the page skipped, the posts in, links rewritten", async () => {
    const headers = await admin();
    const res = await upload(ghostExport("api-a"), headers);
    expect(res.status).toBe(201);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const preview = (await res.json()) as View;
    expect(preview.job.status).toBe("preview");
    expect(preview.summary).toMatchObject({ posts: 3, pages: 1 });

    const start = await call(`/api/imports/${preview.job.id}/start`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ default_category: "Lifestyle" }),
    });
    expect(start.status).toBe(202);
    expect(((await start.json()) as View).job.status).toBe("running");
    const again = await call(`/api/imports/${preview.job.id}/start`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ default_category: "Lifestyle" }),
    });
    expect(again.status).toBe(409);

    await runAll(preview.job.id);
    const status = (await (await call(`/api/imports/${preview.job.id}`, { headers })).json()) as View;
    expect(status.job).toMatchObject({ status: "done", total: 4, done: 4, imported: 3, skipped: 1 });
    const page = status.report.items.find((i) => i.title === "About this site")!;
    expect(page).toMatchObject({
      state: "skipped",
      blogId: null,
      note: { reason: "a page (this site has posts only)" },
    });

    // __GHOST_URL__ never survives: a link to a post of the export is that post here, a tag is our tag page.
    const first = status.report.items.find((i) => i.title === "Post 1")!;
    const second = status.report.items.find((i) => i.title === "Post 2")!;
    const body = (await env.DB.prepare("select blog_details from blogs where id = ?")
      .bind(first.blogId)
      .first<{ blog_details: string }>())!.blog_details;
    expect(body).not.toContain("__GHOST_URL__");
    expect(body).toContain(`[the next one](/blogs/${second.blogId})`);
    expect(body).toContain("[a tag](/tags/getting-started)");
    expect(body).toContain("[home](/)");
    // The export names no address for its images: reported, the placeholder shown, nothing fetched.
    expect(first.note.failedImages).toEqual([
      {
        url: "__GHOST_URL__/content/images/2024/01/photo.png",
        reason: "a Ghost image, and the export does not say which site __GHOST_URL__ was",
      },
    ]);
    expect(fetches.urls.some((u) => u.includes("__GHOST_URL__"))).toBe(false);
    const link = await call(`/blogs/${second.blogId}`, { redirect: "manual" });
    expect([200, 301]).toContain(link.status);

    const list = (await (await call("/api/imports", { headers })).json()) as { id: string }[];
    expect(list.map((j) => j.id)).toContain(preview.job.id);
  });

  it("when the export names its site, __GHOST_URL__ images are fetched from it", async () => {
    const headers = await admin();
    const preview = (await (await upload(ghostExport("api-b", "https://old.ghost.example"), headers)).json()) as View;
    await startAndRun(preview.job.id, headers);
    expect(fetches.urls).toContain("https://old.ghost.example/content/images/2024/01/photo.png");
  });

  it("when the export does not name its site, the address given with the upload finds its images", async () => {
    const headers = await admin();
    const bad = await upload(ghostExport("api-g"), headers, "?source_url=javascript:alert(1)");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter the old site's address");
    const preview = (await (
      await upload(ghostExport("api-h"), headers, "?source_url=given.ghost.example/blog")
    ).json()) as View;
    await startAndRun(preview.job.id, headers);
    expect(fetches.urls).toContain("https://given.ghost.example/content/images/2024/01/photo.png");
  });

  it("refuses: no session 401, a writer's site import 403, a bad scope 400, not multipart 415, another's job 404", async () => {
    expect((await upload(ghostExport("api-c"), {})).status).toBe(401);
    const writer = await asUser(await makeUser({ email: `writer-${crypto.randomUUID()}@example.com` }));
    expect((await upload(ghostExport("api-d"), writer, "?scope=site")).status).toBe(403);
    expect((await upload(ghostExport("api-e"), writer, "?scope=everything")).status).toBe(400);
    const notForm = await call("/api/imports", {
      method: "POST",
      headers: { ...writer, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(notForm.status).toBe(415);
    // A writer's own import works, and is theirs alone.
    const own = await upload(ghostExport("api-f"), writer);
    expect(own.status).toBe(201);
    const id = ((await own.json()) as View).job.id;
    const stranger = await asUser(await makeUser({ email: `stranger-${crypto.randomUUID()}@example.com` }));
    expect((await call(`/api/imports/${id}`, { headers: stranger })).status).toBe(404);
    expect((await call(`/api/imports/${id}`, { headers: writer })).status).toBe(200);
  });
});

describe("POST /api/imports/:id/retry-images", () => {
  it("is refused before the import has finished (409) and to anyone but its owner (404); after, it answers what it did", async () => {
    const headers = await admin();
    const preview = (await (await upload(ghostExport("api-retry"), headers)).json()) as View;
    const early = await call(`/api/imports/${preview.job.id}/retry-images`, { method: "POST", headers });
    expect(early.status).toBe(409);
    const stranger = await asUser(await makeUser());
    const other = await call(`/api/imports/${preview.job.id}/retry-images`, { method: "POST", headers: stranger });
    expect(other.status).toBe(404);
    await startAndRun(preview.job.id, headers);
    const done = await call(`/api/imports/${preview.job.id}/retry-images`, { method: "POST", headers });
    expect(done.status).toBe(200);
    // The export does not name its site: its one __GHOST_URL__ image still has nowhere to come from.
    expect(await done.json()).toMatchObject({ retried: 1, copied: 0, stillFailed: 1, job: { status: "done" } });
  });
});
