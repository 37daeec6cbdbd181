import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { zipSync } from "fflate";
import { expect, test } from "./fixtures";
import { ACCOUNTS, importThroughApi, signIn } from "./support";

// Substack's export is a zip of posts.csv, posts/<id>.html and email_list*.csv. Its CSV is parsed inside the
// Worker: the workers pool allows code generation from strings and wrangler dev (like production) does not,
// so only this run proves the Substack importer works where it ships.
const FIXTURE = path.resolve("tests/fixtures/imports/substack");

function substackZip(): Buffer {
  const files: Record<string, Uint8Array> = {
    "posts.csv": readFileSync(path.join(FIXTURE, "posts.csv")),
    "email_list.my-publication.csv": readFileSync(path.join(FIXTURE, "email_list.fixtures.csv")),
  };
  for (const name of readdirSync(path.join(FIXTURE, "posts")))
    files[`posts/${name}`] = readFileSync(path.join(FIXTURE, "posts", name));
  return Buffer.from(zipSync(files));
}

test("a Substack export imports through wrangler dev: its posts and its subscribers arrive", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ACCOUNTS.admin);
  const view = await importThroughApi(page, {
    name: "substack-export.zip",
    mimeType: "application/zip",
    buffer: substackZip(),
  });
  expect(view.job.platform).toBe("substack");
  expect(view.job.imported).toBeGreaterThan(0);
  const plain = view.items.find((i) => i.title === "Plain Text");
  expect(plain?.state).toBe("done");
  const post = await page.request.get(`/api/blogs/${plain!.blogId}`);
  expect(post.status()).toBe(200);
  expect((await post.json()).title).toBe("Plain Text");

  // Subscribers confirmed on Substack arrive as confirmed subscribers here.
  const csv = await (await page.request.get("/api/newsletter/subscribers.csv")).text();
  expect(csv).toContain("herroooo@substack.com");
});
