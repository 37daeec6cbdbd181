import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { zipSync } from "fflate";
import { expect, test } from "./fixtures";
import { ACCOUNTS, importThroughApi, signIn } from "./support";

// Substack's export is a zip of posts.csv, posts/<id>.html and email_list*.csv. Its CSV is parsed inside the
// Worker: the workers pool allows code generation from strings and wrangler dev (like production) does not,
// so only this run proves the Substack importer works where it ships.
const FIXTURE = path.resolve("tests/fixtures/imports/substack");

/**
 * The fixture's export, plus (when given) one paid subscribers' post of this run: its row in posts.csv
 * (audience "only_paid") and its HTML, the free opening above Substack's paywall element.
 */
function substackZip(paid?: { id: string; title: string; free: string; gated: string }): Buffer {
  let posts = readFileSync(path.join(FIXTURE, "posts.csv"), "utf8");
  const files: Record<string, Uint8Array> = {
    "email_list.my-publication.csv": readFileSync(path.join(FIXTURE, "email_list.fixtures.csv")),
  };
  for (const name of readdirSync(path.join(FIXTURE, "posts")))
    files[`posts/${name}`] = readFileSync(path.join(FIXTURE, "posts", name));
  if (paid) {
    posts = `${posts.trimEnd()}\n${paid.id},2024-03-01T10:00:00.000Z,true,2024-03-01T10:00:00.000Z,newsletter,only_paid,${paid.title},,\n`;
    files[`posts/${paid.id}.html`] = new TextEncoder().encode(
      `<p>${paid.free}</p><div class="paywall-jump" data-component-name="PaywallToDOM"></div><p>${paid.gated}</p>`,
    );
  }
  files["posts.csv"] = new TextEncoder().encode(posts);
  return Buffer.from(zipSync(files));
}

/** The subscribers in the fixture's email_list whose Substack plan was paid or comped, and whether Substack mailed them. */
function paidOnSubstack(): { email: string; mailed: boolean }[] {
  const [head, ...lines] = readFileSync(path.join(FIXTURE, "email_list.fixtures.csv"), "utf8").trim().split("\n");
  const columns = head!.split(",");
  return lines
    .map((line) => Object.fromEntries(line.split(",").map((v, i) => [columns[i], v])))
    .filter((row) => row.type === "paid" || row.type === "comp")
    .map((row) => ({ email: row.email!.toLowerCase(), mailed: row.email_disabled !== "true" }));
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

test("a Substack paid post stays for paying members; Substack's paying subscribers are not made paid members", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, ACCOUNTS.admin);
  const run = Date.now().toString(36);
  const paid = {
    id: `9${Date.now()}.paid-${run}`,
    title: `For paying subscribers ${run}`,
    free: `The opening everyone reads, ${run}.`,
    gated: `The paragraph only paying subscribers read, ${run}.`,
  };
  const view = await importThroughApi(page, {
    name: "substack-export.zip",
    mimeType: "application/zip",
    buffer: substackZip(paid),
  });
  expect(view.job.platform).toBe("substack");
  const item = view.items.find((i) => i.title === paid.title);
  expect(item?.state, JSON.stringify(view.items)).toBe("done");

  // The admin's record: a paid post, whole.
  const record = (await (await page.request.get(`/api/blogs/${item!.blogId}`)).json()) as {
    visibility: string;
    blog_details: string;
  };
  expect(record.visibility).toBe("paid");
  expect(record.blog_details).toContain(paid.gated);

  // A visitor's page: the opening and the call to join; the paid paragraph is nowhere in what it is sent.
  const visitor = await browser.newPage();
  const html = await (await visitor.request.get(`/blogs/${item!.blogId}`)).text();
  expect(html).toContain(paid.free);
  expect(html).not.toContain(paid.gated);
  expect(html).toContain("The rest of this post is for paying members");
  expect(await (await visitor.request.get(`/api/blogs/${item!.blogId}`)).text()).not.toContain(paid.gated);
  await visitor.close();

  // Substack's paying and comped subscribers came in as newsletter subscribers, none of them as a paid or
  // comped member: only Stripe makes a member paid.
  const paying = paidOnSubstack();
  expect(paying.length).toBeGreaterThan(0);
  const subscribers = await (await page.request.get("/api/newsletter/subscribers.csv")).text();
  for (const { email } of paying.filter((p) => p.mailed)) expect(subscribers).toContain(email);
  const emails = paying.map((p) => p.email);
  for (const status of ["paid", "comped"]) {
    const members = await page.request.get(`/api/members?status=${status}&limit=100`);
    expect(members.status()).toBe(200);
    const listed = ((await members.json()) as { items: { email: string }[] }).items.map((m) => m.email);
    for (const email of emails) expect(listed, `${email} is ${status}`).not.toContain(email);
  }
  for (const email of emails) {
    const found = (await (await page.request.get(`/api/members?q=${encodeURIComponent(email)}`)).json()) as {
      items: { status: string }[];
    };
    expect(
      found.items.filter((m) => m.status !== "free"),
      email,
    ).toEqual([]);
  }
});
