#!/usr/bin/env node
// `npm run bench:import`: generates a WordPress WXR file of N posts (5,000 unless given; every 10th with an
// image served by a local test server), imports it through /dashboard/import as `wrangler dev` runs it
// (the upload, the preview, the import queue's batches), and prints posts per second and the peak memory
// of the workerd process (its resident set, sampled every 250 ms: as far as local emulation shows it).
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { rm } from "node:fs/promises";
import { freshSeededState, startWrangler } from "./lib/local.mjs";

// `npm run bench:import -- images`: the image-heavy row, 500 posts with 10 images each (5,000), every image
// answered after 100 ms, spread over four host names of this machine (as WordPress.com spreads a site's
// images over i0, i1 and i2.wp.com beside its own host): the import fetches six at most per host at once.
const IMAGES_MODE = process.argv[2] === "images";
const COUNT = IMAGES_MODE ? 500 : Number(process.argv[2] ?? 5_000);
const IMAGES_PER_POST = IMAGES_MODE ? 10 : 0;
const IMAGE_DELAY_MS = IMAGES_MODE ? 100 : 0;
const IMAGE_HOSTS = ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"];
const SECRET = "bench-session-secret-0123456789abcdef0123456789";
const ADMIN = { email: "admin@edgeblog.test", password: "Admin#Demo2026" };
// A real 1x1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

function wxr(imageBase, port) {
  const items = [];
  for (let i = 1; i <= COUNT; i++) {
    const image = IMAGES_MODE
      ? Array.from(
          { length: IMAGES_PER_POST },
          (_, k) =>
            `<p><img src="http://${IMAGE_HOSTS[k % IMAGE_HOSTS.length]}:${port}/img/${i}-${k}.png" alt="Picture ${i}.${k}"></p>`,
        ).join("")
      : i % 10 === 0
        ? `<img src="${imageBase}/img/${i}.png" alt="Picture ${i}">`
        : "";
    const day = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
    items.push(`<item><title>Bench post ${i}</title><link>https://bench.example/?p=${i}</link>
<dc:creator><![CDATA[bench]]></dc:creator>
<content:encoded><![CDATA[<h2>Section ${i}</h2><p>Paragraph with a <a href="https://example.com/${i}">link</a>.</p><ul><li>one</li><li>two</li></ul>${image}<pre><code>x = ${i}</code></pre>]]></content:encoded>
<excerpt:encoded><![CDATA[Post number ${i}.]]></excerpt:encoded>
<wp:post_id>${i}</wp:post_id><wp:post_date>${day}</wp:post_date><wp:post_date_gmt>${day}</wp:post_date_gmt>
<wp:status>${i % 20 === 0 ? "draft" : "publish"}</wp:status><wp:post_type>post</wp:post_type>
<category domain="category" nicename="tech"><![CDATA[Technology]]></category>
<category domain="post_tag" nicename="bench"><![CDATA[bench]]></category></item>`);
  }
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Bench</title><link>https://bench.example</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>https://bench.example</wp:base_site_url>
<wp:author><wp:author_login><![CDATA[bench]]></wp:author_login><wp:author_email><![CDATA[bench-author@bench.example]]></wp:author_email><wp:author_display_name><![CDATA[Bench Author]]></wp:author_display_name></wp:author>
${items.join("\n")}
</channel></rss>`;
}

/** Resident memory (KiB) of the workerd processes in wrangler's process group. */
function workerdRss(pgid) {
  try {
    const out = execFileSync("ps", ["-o", "rss=,comm=", "-g", String(pgid)], { encoding: "utf8" });
    return out
      .split("\n")
      .filter((l) => l.includes("workerd"))
      .reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[0] || 0), 0);
  } catch {
    return 0;
  }
}

let stateDir;
let server;
const images = createServer((req, res) => {
  setTimeout(() => {
    res.writeHead(200, { "content-type": "image/png", "content-length": PNG.length });
    res.end(PNG);
  }, IMAGE_DELAY_MS);
});
try {
  // Every loopback address reaches it (127.0.0.2 and on are this machine too).
  await new Promise((r) => images.listen(0, IMAGES_MODE ? "0.0.0.0" : "127.0.0.1", r));
  const imageBase = `http://127.0.0.1:${images.address().port}`;
  stateDir = await freshSeededState("edge-blog-import-bench-");
  server = await startWrangler([
    "--persist-to",
    stateDir,
    "--var",
    `SESSION_SECRET:${SECRET}`,
    "--var",
    "ADMIN_EMAILS:admin@edgeblog.test",
    // The images come from this machine's own test server.
    "--var",
    "IMPORT_ALLOW_PRIVATE_HOSTS:true",
  ]);
  const { baseURL } = server;
  const login = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const auth = { Authorization: `Bearer ${(await login.json()).token}`, Origin: baseURL };

  const file = wxr(imageBase, images.address().port);
  const form = new FormData();
  form.append("intent", "upload");
  form.append("file", new File([file], "bench.xml", { type: "text/xml" }));
  let peak = workerdRss(server.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, workerdRss(server.pid))), 250);
  const started = performance.now();
  const upload = await fetch(`${baseURL}/dashboard/import?upload=site`, {
    method: "POST",
    body: form,
    headers: auth,
    redirect: "manual",
  });
  const jobPath = upload.headers.get("location");
  if (upload.status !== 302 || !jobPath)
    throw new Error(`upload: ${upload.status} ${(await upload.text()).slice(0, 300)}`);
  const staged = (performance.now() - started) / 1000;
  const jobId = new URL(jobPath, baseURL).searchParams.get("job");
  const confirm = new FormData();
  confirm.append("intent", "confirm");
  confirm.append("job", jobId);
  confirm.append("default_category", "Technology");
  const go = await fetch(`${baseURL}/dashboard/import`, {
    method: "POST",
    body: confirm,
    headers: auth,
    redirect: "manual",
  });
  if (go.status !== 302) throw new Error(`confirm: ${go.status}`);
  const queued = performance.now();
  let counts = "";
  const deadline = Date.now() + 60 * 60_000;
  for (;;) {
    const html = await (await fetch(`${baseURL}${jobPath}`, { headers: auth })).text();
    counts = (/data-testid="import-counts">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "").replace(/<[^>]+>|<!-- -->/g, "");
    process.stdout.write(`\r  ${counts.slice(0, 120)}`);
    if (html.includes("Import finished")) break;
    if (Date.now() > deadline) throw new Error("the import did not finish within an hour");
    await new Promise((r) => setTimeout(r, 1000));
  }
  clearInterval(sampler);
  const seconds = (performance.now() - queued) / 1000;
  process.stdout.write("\n");
  console.log(
    `import bench: ${COUNT} posts in a ${(file.length / 1024 / 1024).toFixed(1)} MB WXR file, ${IMAGES_MODE ? `${COUNT * IMAGES_PER_POST} images (${IMAGE_DELAY_MS} ms each, ${IMAGE_HOSTS.length} hosts)` : `${COUNT / 10} images`}`,
  );
  console.log(`  upload (parse, stage in D1 and R2): ${staged.toFixed(1)} s`);
  console.log(`  queue run: ${seconds.toFixed(1)} s, ${(COUNT / seconds).toFixed(1)} posts/s (batches of 10 posts)`);
  console.log(`  peak workerd resident memory: ${(peak / 1024).toFixed(0)} MB`);
  console.log(`  ${counts.replace(/\s+/g, " ").trim()}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  server?.stop();
  images.close();
  await new Promise((r) => setTimeout(r, 300));
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
}
