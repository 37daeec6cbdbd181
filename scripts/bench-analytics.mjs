#!/usr/bin/env node
// `npm run bench:analytics`: the analytics at a real site's traffic, through `wrangler dev` (modelled on
// scripts/bench-scale.mjs).
//
// 1. Ingest: a fresh seeded site is served; `--ingest N` hits are queued (`--via queue`, the default: POST
//    /api/analytics/bench, open only with ANALYTICS_BENCH_HOOKS=true, queues 10,000 synthetic hits a request
//    straight to ANALYTICS_QUEUE) or sent to POST /api/analytics/hit (`--via beacon`: the
//    beacon, `--concurrency C` at a time, each from its own address and agent), which queues them; the
//    emulated queue hands them to the Worker's consumer in batches of 100, each folded in one D1 batch.
//    Printed: beacon answers per second, and messages folded per second (first send to the last hit
//    counted in the rollups, read back through the summary API).
// 2. Reads: two more sites hold the rollups of `--small` and `--large` hits over 90 days (made by SQL from
//    synthetic hits: the same rows the consumer would make, without waiting for the beacon to send them),
//    and the dashboard and the summary API are asked of each, past the edge cache; printed is the median
//    time and size of each answer against the goals: at most 1.5x the small site's time, under 300 KB.
//
//   npm run bench:analytics [-- --ingest 1000000 --via queue|beacon --concurrency 48 --small 1000 --large 1000000 --runs 5]
//   node scripts/bench-analytics.mjs --ingest 0          (the read half only)
//   node scripts/bench-analytics.mjs --reads 0           (the ingest half only)
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freshSeededState, run, startWrangler } from "./lib/local.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const INGEST = arg("ingest", 1_000_000);
const CONCURRENCY = arg("concurrency", 48);
const SMALL = arg("small", 1_000);
const LARGE = arg("large", 1_000_000);
const RUNS = arg("runs", 5);
const READS = arg("reads", 1);
const WAIT_SECONDS = arg("wait", 7200);
// --via queue (default): the hits go straight to the analytics queue through POST /api/analytics/bench
// (open only with ANALYTICS_BENCH_HOOKS=true, as here); --via beacon: each one through the beacon over HTTP.
const VIA = process.argv.includes("--via") ? process.argv[process.argv.indexOf("--via") + 1] : "queue";
const VARS = ["--var", "SESSION_SECRET:bench-session-secret-0123456789abcdef0123456789"];
const BENCH_VARS = [...VARS, "--var", "ANALYTICS_BENCH_HOOKS:true"];
/** Hits per producer request (the endpoint's cap), and producer requests in flight. */
const CHUNK = 10_000;
const PRODUCERS = 2;
const AGENTS = [
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
];
const REFERRERS = [
  "",
  "https://www.google.com/",
  "https://news.ycombinator.com/",
  "https://mastodon.social/@a/1",
  "https://example.org/",
];
const COUNTRIES = ["US", "FR", "DE", "JP", "BR", "IN", "GB", "NL", "CA", "ES", "IT", "AU"];

async function signIn(baseURL, email, password) {
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (!res.ok || !cookies.length) throw new Error(`sign-in of ${email} failed (${res.status})`);
  return cookies.join("; ");
}

async function publishedPosts(base) {
  const res = await fetch(`${base}/api/blogs?limit=50`);
  return (await res.json()).map((b) => b._id);
}

async function siteTotalToday(base, admin) {
  const today = new Date().toISOString().slice(0, 10);
  const res = await fetch(`${base}/api/analytics/summary?from=${today}&to=${today}`, { headers: { Cookie: admin } });
  return (await res.json()).pageviews ?? 0;
}

/** Waits until the site's total for today reaches `target`, printing progress; answers when it did. */
async function waitFolded(server, admin, target, started) {
  let counted = 0;
  let lastLog = 0;
  let moved = { counted: -1, at: 0 };
  for (;;) {
    counted = await siteTotalToday(server.baseURL, admin);
    const s = (performance.now() - started) / 1000;
    if (counted >= target || s > WAIT_SECONDS) return { counted, seconds: s };
    if (counted !== moved.counted) moved = { counted, at: s };
    else if (s - moved.at > 120) {
      console.log(
        `STALLED at ${counted.toLocaleString("en-US")} for 120 s; the server's last words:\n${server.logTail()}`,
      );
      return { counted, seconds: s };
    }
    if (s - lastLog >= 30) {
      lastLog = s;
      console.log(
        `  folded ${counted.toLocaleString("en-US")} after ${s.toFixed(0)} s (${(counted / s).toFixed(0)}/s)`,
      );
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** Part 1, --via queue: N synthetic hits queued by the bench producer, folded by the real consumer. */
async function ingestViaQueue(n) {
  const stateDir = await freshSeededState("edge-blog-analytics-ingest-");
  const server = await startWrangler(["--persist-to", stateDir, ...BENCH_VARS]);
  try {
    const base = server.baseURL;
    const admin = await signIn(base, "admin@edgeblog.test", "Admin#Demo2026");
    const posts = await publishedPosts(base);
    const before = await siteTotalToday(base, admin);
    let next = 0;
    let failed = 0;
    const started = performance.now();
    const producer = async () => {
      for (;;) {
        const offset = next;
        next += CHUNK;
        if (offset >= n) return;
        const count = Math.min(CHUNK, n - offset);
        const res = await fetch(`${base}/api/analytics/bench`, {
          method: "POST",
          headers: { Origin: base, "Content-Type": "application/json" },
          body: JSON.stringify({ count, offset, posts }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) failed += count;
      }
    };
    await Promise.all(Array.from({ length: PRODUCERS }, producer));
    const sentSeconds = (performance.now() - started) / 1000;
    console.log(`  queued ${n.toLocaleString("en-US")} in ${sentSeconds.toFixed(0)} s`);
    const { counted, seconds } = await waitFolded(server, admin, before + n - failed, started);
    return { n, failed, counted: counted - before, sentSeconds, foldedSeconds: seconds };
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 500));
    await rm(stateDir, { recursive: true, force: true });
  }
}

/** Part 1, --via beacon: N beacons through the real endpoint, queue and consumer. */
async function ingestViaBeacon(n) {
  const stateDir = await freshSeededState("edge-blog-analytics-ingest-");
  const server = await startWrangler(["--persist-to", stateDir, ...VARS]);
  try {
    const base = server.baseURL;
    const admin = await signIn(base, "admin@edgeblog.test", "Admin#Demo2026");
    const posts = await publishedPosts(base);
    let next = 0;
    let failed = 0;
    const started = performance.now();
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const res = await fetch(`${base}/api/analytics/hit`, {
          method: "POST",
          headers: {
            Origin: base,
            "Content-Type": "text/plain;charset=UTF-8",
            "User-Agent": AGENTS[i % AGENTS.length],
            "CF-Connecting-IP": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
            "CF-IPCountry": COUNTRIES[i % COUNTRIES.length],
          },
          body: JSON.stringify({
            path: i % 10 === 0 ? "/" : `/blogs/${posts[i % posts.length]}/post${i % 3 === 0 ? "?ref=newsletter" : ""}`,
            referrer: REFERRERS[i % REFERRERS.length],
          }),
        });
        await res.arrayBuffer();
        if (res.status !== 204) failed++;
        if (i > 0 && i % 10_000 === 0) {
          const s = (performance.now() - started) / 1000;
          console.log(`  sent ${i.toLocaleString("en-US")} in ${s.toFixed(0)} s (${(i / s).toFixed(0)}/s)`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const sentSeconds = (performance.now() - started) / 1000;
    let counted = 0;
    for (let waited = 0; waited < 600 && counted < n - failed; waited++) {
      counted = await siteTotalToday(base, admin);
      if (counted < n - failed) await new Promise((r) => setTimeout(r, 1000));
    }
    const foldedSeconds = (performance.now() - started) / 1000;
    return { n, failed, counted, sentSeconds, foldedSeconds };
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 500));
    await rm(stateDir, { recursive: true, force: true });
  }
}

/** The rollups `hits` synthetic hits over 90 days make, written by SQL (what the consumer would have folded). */
function rollupSql(hits) {
  const visitors = Math.max(1, Math.floor(hits / 3));
  const scoped = (scope, flagWhere) => `
INSERT INTO analytics_daily (scope, dim, day, key, pageviews, visitors)
SELECT * FROM (
  SELECT ${scope}, 'total', day, '', count(*), count(DISTINCT visitor) FROM bench_hits ${flagWhere} GROUP BY 1, day
  UNION ALL SELECT ${scope}, 'source', day, source, count(*), count(DISTINCT visitor) FROM bench_hits ${flagWhere} GROUP BY 1, day, source
  UNION ALL SELECT ${scope}, 'country', day, country, count(*), count(DISTINCT visitor) FROM bench_hits ${flagWhere} GROUP BY 1, day, country
) WHERE true ON CONFLICT DO NOTHING;
INSERT INTO analytics_daily (scope, dim, day, key, pageviews, visitors)
SELECT * FROM (
  SELECT ${scope}, 'device', day, device, count(*), count(DISTINCT visitor) FROM bench_hits ${flagWhere} GROUP BY 1, day, device
  UNION ALL SELECT ${scope}, 'browser', day, browser, count(*), count(DISTINCT visitor) FROM bench_hits ${flagWhere} GROUP BY 1, day, browser
) WHERE true ON CONFLICT DO NOTHING;`;
  return `
CREATE TABLE bench_posts AS SELECT row_number() OVER (ORDER BY id) - 1 AS n, id, author_id FROM blogs WHERE status = 'published';
CREATE TABLE bench_hits AS
WITH RECURSIVE h(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM h WHERE i < ${hits - 1})
SELECT date('now', '-' || (i % 90) || ' days') AS day,
       CASE WHEN i % 10 = 0 THEN NULL ELSE i % (SELECT count(*) FROM bench_posts) END AS p,
       'v' || (i % ${visitors}) AS visitor,
       CASE i % 6 WHEN 0 THEN 'direct' WHEN 1 THEN 'search' WHEN 2 THEN 'social' WHEN 3 THEN 'fediverse'
                  WHEN 4 THEN 'newsletter' ELSE 'site' || (i % 40) || '.example' END AS source,
       CASE i % 12 WHEN 0 THEN 'US' WHEN 1 THEN 'FR' WHEN 2 THEN 'DE' WHEN 3 THEN 'JP' WHEN 4 THEN 'BR' WHEN 5 THEN 'IN'
                   WHEN 6 THEN 'GB' WHEN 7 THEN 'NL' WHEN 8 THEN 'CA' WHEN 9 THEN 'ES' WHEN 10 THEN 'IT' ELSE 'AU' END AS country,
       CASE i % 3 WHEN 0 THEN 'desktop' WHEN 1 THEN 'mobile' ELSE 'tablet' END AS device,
       CASE i % 5 WHEN 0 THEN 'Chrome' WHEN 1 THEN 'Safari' WHEN 2 THEN 'Firefox' WHEN 3 THEN 'Edge' ELSE 'Samsung Internet' END AS browser
FROM h;
ALTER TABLE bench_hits ADD COLUMN blog_id TEXT;
ALTER TABLE bench_hits ADD COLUMN owner TEXT;
UPDATE bench_hits SET blog_id = (SELECT id FROM bench_posts WHERE n = bench_hits.p),
                      owner = (SELECT author_id FROM bench_posts WHERE n = bench_hits.p) WHERE p IS NOT NULL;
${scoped("'site'", "")}
${scoped("'w:' || owner", "WHERE owner IS NOT NULL")}
${scoped("'p:' || blog_id", "WHERE blog_id IS NOT NULL")}
INSERT INTO analytics_daily (scope, dim, day, key, pageviews, visitors)
SELECT 'site', 'post', day, blog_id, count(*), count(DISTINCT visitor) FROM bench_hits WHERE blog_id IS NOT NULL GROUP BY day, blog_id;
INSERT INTO analytics_daily (scope, dim, day, key, pageviews, visitors)
SELECT 'w:' || owner, 'post', day, blog_id, count(*), count(DISTINCT visitor) FROM bench_hits WHERE blog_id IS NOT NULL GROUP BY owner, day, blog_id;
DROP TABLE bench_hits;
DROP TABLE bench_posts;
`;
}

async function prepareReads(hits) {
  const started = performance.now();
  const stateDir = await freshSeededState(`edge-blog-analytics-${hits}-`);
  const sqlDir = await mkdtemp(path.join(tmpdir(), "edge-blog-analytics-sql-"));
  const file = path.join(sqlDir, "rollups.sql");
  await writeFile(file, rollupSql(hits));
  await run("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file], {
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const seedSeconds = (performance.now() - started) / 1000;
  console.log(`rollups of ${hits.toLocaleString("en-US")} hits made in ${seedSeconds.toFixed(0)} s`);
  const server = await startWrangler(["--persist-to", stateDir, ...VARS]);
  const base = server.baseURL;
  const admin = await signIn(base, "admin@edgeblog.test", "Admin#Demo2026");
  const writer = await signIn(base, "writer@edgeblog.test", "Writer#Demo2026");
  const post = (await (await fetch(`${base}/api/blog?email=writer%40edgeblog.test&limit=1`)).json())[0]._id;
  const rows = [
    ["/dashboard/analytics?range=90 (admin)", "/dashboard/analytics?range=90", { Cookie: admin }],
    ["/dashboard/analytics (admin, 30 days)", "/dashboard/analytics", { Cookie: admin }],
    ["/dashboard/analytics?range=90 (writer)", "/dashboard/analytics?range=90", { Cookie: writer }],
    ["/dashboard/analytics/{post}?range=90", `/dashboard/analytics/${post}?range=90`, { Cookie: writer }],
    ["GET /api/analytics/summary (admin, 90 days)", "/api/analytics/summary?from=START&to=END", { Cookie: admin }],
    [
      "GET /api/analytics/summary?post= (90 days)",
      `/api/analytics/summary?from=START&to=END&post=${post}`,
      { Cookie: writer },
    ],
  ].map(([name, p, headers]) => {
    const end = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
    return { name, url: `${base}${p.replace("START", start).replace("END", end)}`, headers };
  });
  const stop = async () => {
    server.stop();
    await new Promise((r) => setTimeout(r, 500));
    await rm(sqlDir, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  };
  return { rows, stop, base, admin };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function once(url, headers) {
  const started = performance.now();
  const res = await fetch(url, { headers, redirect: "manual" });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - started, size: body.byteLength, status: res.status };
}
const kb = (n) => `${(n / 1024).toFixed(n < 10_240 ? 1 : 0)} KB`;

if (INGEST > 0) {
  console.log(
    VIA === "beacon"
      ? `ingesting ${INGEST.toLocaleString("en-US")} hits through the beacon, ${CONCURRENCY} at a time...`
      : `ingesting ${INGEST.toLocaleString("en-US")} hits through the queue (${CHUNK.toLocaleString("en-US")} per producer request, ${PRODUCERS} in flight)...`,
  );
  const r = VIA === "beacon" ? await ingestViaBeacon(INGEST) : await ingestViaQueue(INGEST);
  console.log(
    `\n| via | hits | ${VIA === "beacon" ? "beacon answers" : "producer answers"} | sent in | folded (counted) | all folded after | messages folded per second |\n|---|---|---|---|---|---|---|\n| ${VIA} | ${r.n.toLocaleString("en-US")} | ${r.failed ? `${r.failed} failed` : "all ok"} | ${r.sentSeconds.toFixed(0)} s (${(r.n / r.sentSeconds).toFixed(0)}/s) | ${r.counted.toLocaleString("en-US")} | ${r.foldedSeconds.toFixed(0)} s | ${(r.counted / r.foldedSeconds).toFixed(0)} |\n`,
  );
  if (r.counted !== r.n - r.failed) console.log(`MISSED: ${r.counted} of ${r.n - r.failed} hits were counted.`);
}
if (!READS) process.exit(0);

const small = await prepareReads(SMALL);
let large;
try {
  large = await prepareReads(LARGE);
} catch (err) {
  await small.stop();
  throw err;
}
const results = [];
try {
  for (let r = 0; r < small.rows.length; r++) {
    const a = small.rows[r];
    const b = large.rows[r];
    const ta = [];
    const tb = [];
    let last;
    for (let i = 0; i <= RUNS; i++) {
      const x = await once(a.url, a.headers);
      const y = await once(b.url, b.headers);
      if (i > 0) {
        ta.push(x.ms);
        tb.push(y.ms);
      }
      last = [x, y];
    }
    results.push({ name: a.name, a: { ...last[0], ms: median(ta) }, b: { ...last[1], ms: median(tb) } });
  }
} finally {
  await small.stop();
  await large.stop();
}
console.log(`\nMedian of ${RUNS} requests, wrangler dev on this machine.\n`);
console.log(
  `| answer | ${SMALL.toLocaleString("en-US")} hits | ${LARGE.toLocaleString("en-US")} hits | time ratio | goal |`,
);
console.log("|---|---|---|---|---|");
let failures = 0;
for (const { name, a, b } of results) {
  const ratio = b.ms / a.ms;
  const ok = b.size <= 300 * 1024 && ratio <= 1.5 && a.status === 200 && b.status === 200;
  if (!ok) failures++;
  console.log(
    `| ${name} | ${a.ms.toFixed(0)} ms, ${kb(a.size)} | ${b.ms.toFixed(0)} ms, ${kb(b.size)} | ${ratio.toFixed(2)}x | ${ok ? "met" : `MISSED${b.status !== 200 ? ` (${b.status})` : ""}`} |`,
  );
}
console.log(`\n${failures ? `${failures} rows missed the goal.` : "Every row met the goal."}`);
