import { env } from "cloudflare:workers";
import { afterEach, beforeEach, vi } from "vitest";
import { createServices } from "#worker/services/index.ts";
import type { ImportJobMessage } from "#worker/services/import/run.ts";
import type { Actor } from "#worker/services/shared/policy.ts";
import { makeUser } from "./factories";
import { PNG } from "./pages";

/** The import queue as a list: the tests run each job's batches themselves, counting them. */
export function importHarness() {
  const sent: ImportJobMessage[] = [];
  const queue = {
    async send(body: ImportJobMessage) {
      sent.push(body);
    },
  } as unknown as Queue<ImportJobMessage>;
  const workerEnv = { ...env, IMPORT_QUEUE: queue } as Cloudflare.Env;
  const services = () => createServices(workerEnv);
  return {
    sent,
    services,
    /** Upload, accept the preview, and run every batch the queue would; answers the job and the batch count. */
    async importFile(actor: Actor, file: File, scope: "site" | "own" = "site", confirm: Record<string, unknown> = {}) {
      const { jobId } = await services().imports.start(actor, file, scope);
      await services().imports.confirm(actor, jobId, { default_category: "Lifestyle", ...confirm });
      let batches = 0;
      for (;;) {
        batches += 1;
        const { more } = await services().importRunner.runBatch(jobId);
        if (!more) break;
      }
      return { jobId, batches, view: await services().imports.get(actor, jobId) };
    },
  };
}

/** Outbound image fetches answer a real PNG (no network here), and are counted by URL. */
export function stubImageFetch(fail: (url: string) => boolean = () => false) {
  const urls: string[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    urls.push(url);
    if (fail(url)) return new Response("gone", { status: 404 });
    return new Response(PNG, { headers: { "content-type": "image/png" } });
  });
  return { urls, restore: () => spy.mockRestore() };
}

/**
 * Stubs outbound image fetches around every test of the file that calls it: `urls` are the running
 * test's, and `failAll()` makes the rest of that test's fetches fail.
 */
export function stubImageFetchEachTest() {
  let current = { urls: [] as string[], restore: () => {} };
  beforeEach(() => {
    current = stubImageFetch();
  });
  afterEach(() => current.restore());
  return {
    get urls() {
      return current.urls;
    },
    failAll() {
      current.restore();
      current = stubImageFetch(() => true);
    },
  };
}

/** A new admin, as the services take them. */
export async function importAdmin(): Promise<Actor> {
  const u = await makeUser({ role: "admin", email: `admin-${crypto.randomUUID()}@example.com` });
  return { id: u.id, name: u.name, email: u.email, role: "admin", photoURL: null };
}

export const fileOf = (bytes: Uint8Array | string, name: string) =>
  new File([typeof bytes === "string" ? new TextEncoder().encode(bytes) : (bytes as Uint8Array<ArrayBuffer>)], name);

/** What a job brought in, in the file's order: each post's row as stored, with its comments counted. */
export async function importedBlogs(jobId: string) {
  const { results } = await env.DB.prepare(
    `select b.title, b.status, b.date_time, b.email, b.author_name, b.tags, b.category, b.blog_details, b.image, b.short_description,
       (select count(*) from comments c where c.blog_id = b.id) as comments
     from blogs b join import_items i on i.blog_id = b.id where i.job_id = ? and i.state = 'done' order by i.seq`,
  )
    .bind(jobId)
    .all<{
      title: string;
      status: string;
      date_time: string;
      email: string;
      author_name: string;
      tags: string;
      category: string;
      blog_details: string;
      image: string;
      short_description: string;
      comments: number;
    }>();
  return results;
}
