#!/usr/bin/env node
// `npm run lighthouse:variants`: what a reading page's mobile Lighthouse score is made of, on this machine.
// It takes each page's HTML as the built app serves it to an anonymous reader under `wrangler dev` (a post,
// the home page, All Blogs and a writer's page), and serves that snapshot in three forms from the same origin
// (a small proxy in front of wrangler, so assets, images and the beacon still answer): as served (since
// issue 45 no framework, only the inline islands: docs/decisions/059), with the inline stylesheet moved to a
// cacheable file, and with no JavaScript at all (the page's own scriptless copy). Lighthouse (mobile,
// simulated throttling) measures the forms in turn, `--runs N` rounds (default 6), so the machine's noise
// falls on all of them alike; the table gives every run's score and the medians. A form that still carries
// the framework's scripts must hydrate (React falls back to a whole client render on a mismatch, which would
// make its figures meaningless): the script checks that in Chromium before it measures.
//   npm run lighthouse:variants [-- --runs N] [--only post|home|allBlogs|writer]
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import http from "node:http";
import { rm } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { CHROMIUM_FLAGS, LIGHTHOUSE_VARS, freePort, freshSeededState, startWrangler } from "./lib/local.mjs";

const runsAt = process.argv.indexOf("--runs");
const runs = runsAt > 0 ? Math.max(1, Number.parseInt(process.argv[runsAt + 1], 10) || 6) : 6;
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : null;

const PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const SITE_CSS = /<style id="site-css">([\s\S]*?)<\/style>/;
const CSS_FILE = "/__variants/site.css";
/** Each variant: a name, how it changes the served HTML. */
const VARIANTS = [
  ["as served", (html) => html],
  ["stylesheet as a cached file", (html) => html.replace(SITE_CSS, `<link rel="stylesheet" href="${CSS_FILE}">`)],
  ["no JavaScript", (html) => html.replace(PRELOAD, "").replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "")],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

let app;
let chrome;
let server;
let stateDir;
try {
  stateDir = await freshSeededState("edge-blog-lighthouse-variants-");
  app = await startWrangler(["--persist-to", stateDir, ...LIGHTHOUSE_VARS]);
  const [first] = await (await fetch(`${app.baseURL}/api/latest-blogs`)).json();
  const targets = [
    ["post", `/blogs/${first._id}/${first.slug}`],
    ["home", "/"],
    ["allBlogs", "/allBlogs"],
    ["writer", `/writers/${first.author_id}`],
  ].filter(([name]) => !only || name === only);
  // Each form is served at the page's own path (with ?variant=N), so the client router (where the
  // framework is still there) matches the same route the server rendered and hydration compares like with like.
  const pages = new Map();
  let css = "";
  for (const [target, path] of targets) {
    const served = await fetch(`${app.baseURL}${path}`);
    const html = await served.text();
    css ||= html.match(SITE_CSS)?.[1] ?? "";
    // The snapshot keeps its own Content-Security-Policy: its nonce (or its scripts' hashes) are the snapshot's.
    const csp = served.headers.get("content-security-policy");
    const sep = path.includes("?") ? "&" : "?";
    VARIANTS.forEach(([name, change], i) => {
      const body = change(html);
      pages.set(`${path}${sep}variant=${i}`, { target, name, body, csp, scripts: /<script type="module"/.test(body) });
    });
  }

  const port = await freePort();
  server = http.createServer(async (req, res) => {
    const page = pages.get(req.url);
    if (page) {
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-encoding": "gzip",
        ...(page.csp ? { "content-security-policy": page.csp } : {}),
      });
      return res.end(gzipSync(page.body));
    }
    if (req.url === CSS_FILE) {
      res.writeHead(200, {
        "content-type": "text/css; charset=utf-8",
        "content-encoding": "gzip",
        "cache-control": "public, max-age=31536000, immutable",
      });
      return res.end(gzipSync(css));
    }
    // Everything else (assets, images, the beacon) comes from the app itself, compressed as the edge would.
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const upstream = await fetch(`${app.baseURL}${req.url}`, {
      method: req.method,
      headers: { "content-type": req.headers["content-type"] ?? "", "accept-encoding": "identity" },
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      redirect: "manual",
    });
    const headers = {};
    upstream.headers.forEach((v, k) => {
      if (!["content-encoding", "content-length", "transfer-encoding"].includes(k)) headers[k] = v;
    });
    headers["content-encoding"] = "gzip";
    res.writeHead(upstream.status, headers);
    res.end(gzipSync(Buffer.from(await upstream.arrayBuffer())));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));

  chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: CHROMIUM_FLAGS });
  const measure = async (url) =>
    (await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] }))
      .lhr;
  // Warm-up: the edge cache and the image variants each page asks for.
  for (const [key, { name }] of pages) if (name === "as served") await measure(`http://127.0.0.1:${port}${key}`);
  // Each form that runs the page's scripts hydrates (the root layout marks <html data-hydrated>).
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const tab = await browser.contexts()[0].newPage();
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  tab.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  for (const [key, { target, name, scripts }] of pages) {
    if (!scripts) continue;
    errors.length = 0;
    await tab.goto(`http://127.0.0.1:${port}${key}`, { waitUntil: "load" });
    await tab.waitForFunction(() => document.documentElement.dataset.hydrated === "true", null, { timeout: 15_000 });
    await tab.waitForTimeout(500);
    // A hydration mismatch is reported as an error (React #418/#423), then the whole page is rendered again.
    if (errors.length) throw new Error(`${target}, ${name}: the page does not hydrate cleanly: ${errors.join(" | ")}`);
    console.error(`${target}, ${name}: hydrates without an error`);
  }
  await tab.close();
  await browser.close();
  const results = new Map([...pages.keys()].map((k) => [k, []]));
  for (let round = 0; round < runs; round++) {
    for (const key of pages.keys()) {
      const lhr = await measure(`http://127.0.0.1:${port}${key}`);
      const m = lhr.audits.metrics.details.items[0];
      results.get(key).push({
        perf: Math.round(lhr.categories.performance.score * 100),
        fcp: m.firstContentfulPaint,
        lcp: m.largestContentfulPaint,
        tbt: m.totalBlockingTime,
      });
    }
  }
  console.log(
    `\nLighthouse (mobile, simulated throttling), ${runs} rounds in alternation, ${new Date().toISOString()}`,
  );
  console.log(
    `Inline stylesheet: ${(css.length / 1024).toFixed(1)} KB, ${(gzipSync(css).length / 1024).toFixed(1)} KB gzip\n`,
  );
  console.log("| page | variant | runs | median perf | median FCP s | median LCP s | median TBT ms | HTML KB gzip |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [key, { target, name, body }] of pages) {
    const r = results.get(key);
    console.log(
      `| ${target} | ${name} | ${r.map((x) => x.perf).join(", ")} | ${median(r.map((x) => x.perf))} | ` +
        `${(median(r.map((x) => x.fcp)) / 1000).toFixed(2)} | ${(median(r.map((x) => x.lcp)) / 1000).toFixed(2)} | ` +
        `${Math.round(median(r.map((x) => x.tbt)))} | ${(gzipSync(body).length / 1024).toFixed(1)} |`,
    );
  }
} finally {
  server?.close();
  await chrome?.kill();
  app?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
}
