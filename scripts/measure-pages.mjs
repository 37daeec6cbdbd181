#!/usr/bin/env node
// Server response times of the public pages, measured from this machine against a running server
// (`npm start`, or the URL given). Sequential requests, full bodies read; prints median and p95.
//   node scripts/measure-pages.mjs [http://127.0.0.1:8787] [requests=50]
const base = process.argv[2] ?? "http://127.0.0.1:8787";
const n = Number(process.argv[3] ?? 50);

const latest = await (await fetch(`${base}/api/latest-blogs`)).json();
const paths = [
  "/",
  "/about",
  "/allBlogs",
  "/allBlogs?q=habits",
  `/blogs/${latest[0]._id}`,
  "/contact",
  "/api/latest-blogs",
  "/api/blogs",
  "/rss.xml",
];

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
console.log(`| path | status | bytes | median ms | p95 ms |`);
console.log(`|---|---|---|---|---|`);
for (const path of paths) {
  const times = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < n + 5; i++) {
    const start = performance.now();
    const res = await fetch(base + path);
    const body = await res.arrayBuffer();
    const ms = performance.now() - start;
    if (i >= 5) times.push(ms);
    status = res.status;
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  console.log(`| ${path} | ${status} | ${bytes} | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)} |`);
}
