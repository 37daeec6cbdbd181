#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse (mobile, simulated throttling) in Debian's Chromium against the built
// app under `wrangler dev` on a fresh seeded state. Prints the four scores, FCP, LCP, TBT, CLS and the
// total bytes of each public page. Each page is loaded once before it is measured, so the edge cache
// and the image variants (made on first request) are warm, as they are in production.
// With `--runs N`, each page is measured N times and the table shows Lighthouse's own median run
// (computeMedianRun: the run nearest the median FCP and TTI), as Lighthouse's guide on variability
// advises; the "runs" column lists every run's performance score, so the spread is in view.
//   npm run lighthouse [-- --only /allBlogs] (or --only /tags, /blogs/{id}, /writers/{id}, /tags/{tag}) [--runs N] [--save DIR]
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { CHROMIUM_FLAGS, LIGHTHOUSE_VARS, freshSeededState, startWrangler, withLocalBindings } from "./lib/local.mjs";

const { version } = JSON.parse(
  await readFile(new URL("../node_modules/lighthouse/package.json", import.meta.url), "utf8"),
);
const TAG = "performance";
/** The page's row in the table: /blogs/{id}, /writers/{id}, /tags/{tag}, or the path itself. */
const label = (p) =>
  p.startsWith("/blogs/")
    ? "/blogs/{id}"
    : p.startsWith("/writers/")
      ? "/writers/{id}"
      : p.startsWith("/tags/")
        ? "/tags/{tag}"
        : p;
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : null;
const saveAt = process.argv.indexOf("--save");
const saveDir = saveAt > 0 ? process.argv[saveAt + 1] : null;
if (saveDir) await mkdir(saveDir, { recursive: true });
const runsAt = process.argv.indexOf("--runs");
const runs = runsAt > 0 ? Math.max(1, Number.parseInt(process.argv[runsAt + 1], 10) || 1) : 1;

let app;
let chrome;
let stateDir;
try {
  stateDir = await freshSeededState("edge-blog-lighthouse-");
  // The demo posts carry no tags: the newest gets one, so a tag page has something to show.
  await withLocalBindings(stateDir, (env) =>
    env.DB.batch([
      env.DB.prepare(
        "update blogs set tags = ? where id = (select id from blogs order by date_time desc limit 1)",
      ).bind(TAG),
      env.DB.prepare("insert or ignore into blog_tags (tag, blog_id) select tags, id from blogs where tags = ?").bind(
        TAG,
      ),
    ]),
  );
  app = await startWrangler(["--persist-to", stateDir, ...LIGHTHOUSE_VARS]);
  const [first] = await (await fetch(`${app.baseURL}/api/latest-blogs`)).json();
  // Every public page; one a later landing has not brought yet (it does not answer 200) is left out.
  const candidates = [
    "/",
    "/about",
    "/allBlogs",
    // The post's readable link: /blogs/{id} answers a redirect to it.
    `/blogs/${first._id}/${first.slug}`,
    "/tags",
    `/tags/${TAG}`,
    `/writers/${first.author_id}`,
    "/contact",
    "/login",
    "/register",
    "/privacy",
    "/terms",
  ].filter((p) => !only || p === only || label(p) === only);
  const paths = [];
  for (const p of candidates) if ((await fetch(`${app.baseURL}${p}`)).status === 200) paths.push(p);
  chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: CHROMIUM_FLAGS });
  const rows = [];
  let browser = "";
  for (const path of paths) {
    const url = `${app.baseURL}${path}`;
    // Warm-up run: fills the edge cache and makes the image variants the page asks for.
    await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    const all = [];
    for (let i = 0; i < runs; i++)
      all.push((await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" })).lhr);
    const lhr = all.length > 1 ? computeMedianRun(all) : all[0];
    browser = lhr.environment?.hostUserAgent?.match(/Chrome\/([\d.]+)/)?.[1] ?? browser;
    if (lhr.runtimeError) console.error(`${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // `--save DIR`: each page's whole report, to read what its figures are made of.
    if (saveDir)
      await writeFile(`${saveDir}/${label(path).replace(/[^a-z0-9]+/gi, "_") || "home"}.json`, JSON.stringify(lhr));
    // What keeps a non-performance category under 100, so the table can be acted on.
    for (const id of ["accessibility", "best-practices", "seo"]) {
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const a = lhr.audits[ref.id];
        if (ref.weight > 0 && a && a.score !== null && a.score < 1)
          console.error(`${path}: ${id}: ${a.id}: ${a.title}`);
      }
    }
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
    rows.push({
      path: label(path),
      perf: score("performance"),
      a11y: score("accessibility"),
      bp: score("best-practices"),
      seo: score("seo"),
      fcp: (audit("first-contentful-paint") / 1000).toFixed(2),
      lcp: (audit("largest-contentful-paint") / 1000).toFixed(2),
      tbt: Math.round(audit("total-blocking-time")),
      cls: audit("cumulative-layout-shift").toFixed(3),
      kb: (audit("total-byte-weight") / 1024).toFixed(0),
      runs: all.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)).join(", "),
    });
  }
  const median = runs > 1 ? `, median of ${runs} runs` : "";
  console.log(
    `\nLighthouse ${version} (mobile, simulated throttling${median}), /usr/bin/chromium ${browser}, wrangler dev\n`,
  );
  const runsHead = runs > 1 ? " runs |" : "";
  console.log(`| page | perf | a11y | best practices | SEO | FCP s | LCP s | TBT ms | CLS | total KB |${runsHead}`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|${runs > 1 ? "---|" : ""}`);
  for (const r of rows) {
    console.log(
      `| ${r.path} | ${r.perf} | ${r.a11y} | ${r.bp} | ${r.seo} | ${r.fcp} | ${r.lcp} | ${r.tbt} | ${r.cls} | ${r.kb} |` +
        (runs > 1 ? ` ${r.runs} |` : ""),
    );
  }
} finally {
  await chrome?.kill();
  app?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
}
