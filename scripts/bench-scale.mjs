#!/usr/bin/env node
// `npm run bench:scale`: the site at demo-plus size and at a real one, through `wrangler dev`.
// For each size it makes a throwaway local state (migrations + the demo seed), loads the bulk rows with
// ONE SQL file of recursive CTEs and INSERT ... SELECT (a few statements, not a row at a time), serves it,
// asks every list a reader, writer or admin opens five times past the edge cache, and prints the median
// time and the size of each answer, then a table comparing the two sizes against the goals:
// no answer over 300 KB (sitemap files: at most 10,000 URLs), and at most 1.5x the time of the small site.
//
//   npm run bench:scale [-- --small 1000 --large 100000 --runs 5 --keep]
//   node scripts/bench-scale.mjs --only "allBlogs?q=,writers" --keep            (only rows whose name contains one)
//   node scripts/bench-scale.mjs --only writers --reuse-small DIR --reuse-large DIR   (a kept state, no seeding)
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freshSeededState, run, startWrangler } from "./lib/local.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const text = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ONLY = (text("only") ?? "")
  .split(",")
  .map((x) => x.trim())
  .filter(Boolean);
const SMALL = arg("small", 1_000);
const LARGE = arg("large", 100_000);
const RUNS = arg("runs", 5);
const VARS = ["--var", "SESSION_SECRET:bench-session-secret-0123456789abcdef0123456789"];
const CATEGORIES = ["Technology", "Travel", "Food", "Lifestyle", "Health", "Business"];

/**
 * The bulk of a site of `posts` posts, in proportion to the issue's big site: 100,000 posts (by the demo
 * writer), 50,000 accounts, 1,000,000 likes, 10,000 comments on one post, 5,000 saves by one reader,
 * and 30 days of views for a thousand posts.
 */
function scaleOf(posts) {
  const f = posts / 100_000;
  return {
    posts,
    accounts: Math.max(10, Math.round(50_000 * f)),
    likes: Math.round(1_000_000 * f),
    comments: Math.max(10, Math.round(10_000 * f)),
    saves: Math.max(5, Math.round(5_000 * f)),
    viewed: Math.max(10, Math.round(1_000 * f)),
  };
}

function seedSql(s) {
  const writer = "(select id from users where email = 'writer@edgeblog.test')";
  const post = (i) => `printf('benchpost%011d', ${i})`;
  const account = (i) => `printf('benchuser%011d', ${i})`;
  // Each account likes a run of consecutive posts: unique (post, account) pairs, spread over all posts.
  const perAccount = Math.ceil(s.likes / s.accounts);
  return `
-- Accounts (name and email searchable), joined one a minute.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${s.accounts})
INSERT INTO users (id, name, email, password_hash, role, created_at, updated_at)
SELECT ${account("i")}, 'Reader ' || i || ' ' || substr('AdaBobCyDeeEveFayGusHalIdaJon', (i % 10) * 3 + 1, 3),
       'reader' || i || '@bench.test', NULL, 'user', 1700000000000 + i * 60000, 1700000000000 + i * 60000 FROM n;

-- Posts by the demo writer, one a minute, newest last; every hundredth has the word "kestrel".
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${s.posts})
INSERT INTO blogs (id, author_id, title, short_description, blog_details, category, author_name, email,
                   author_image, date_time, image, likes, status, created_at, updated_at)
SELECT ${post("i")}, ${writer}, 'Bench post ' || i || CASE WHEN i % 100 = 0 THEN ' about a kestrel' ELSE '' END,
       'A short description of bench post ' || i || '.',
       'The body of bench post ' || i || '. It is long enough to look like a post: a few sentences about '
         || 'nothing in particular, repeated so that a card and a search have something to chew on.',
       ${sqlList(CATEGORIES)}, (select name from users where email = 'writer@edgeblog.test'), 'writer@edgeblog.test',
       NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 1600000000 + i * 60, 'unixepoch'),
       '/images/seed-cover-cut-web-apps-load-time-half.jpg', 0, 'published', 1600000000000 + i * 60000, 1600000000000 + i * 60000
FROM n;

-- Likes: ${s.likes} unique (post, account) pairs.
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${s.likes - 1})
INSERT OR IGNORE INTO blog_likes (blog_id, user_id, created_at)
SELECT ${post(`(i % ${s.posts}) + 1`)}, ${account(`(i / ${perAccount}) % ${s.accounts} + 1`)}, 1700000000000 + i FROM n;
UPDATE blogs SET likes = (SELECT count(*) FROM blog_likes WHERE blog_id = blogs.id) WHERE id LIKE 'benchpost%';

-- ${s.comments} comments on the newest post.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${s.comments})
INSERT INTO comments (id, blog_id, user_id, body, created_at)
SELECT printf('benchcomment%011d', i), ${post(s.posts)}, ${account(`(i % ${s.accounts}) + 1`)},
       'Comment number ' || i || ': a reader has something to say about this post.', 1700000000000 + i * 1000 FROM n;

-- ${s.saves} saves by the demo writer (their reading list).
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${s.saves})
INSERT INTO saved_blogs (id, user_id, blog_id, email, created_at)
SELECT printf('benchsave%011d', i), ${writer}, ${post("i")}, 'writer@edgeblog.test', 1700000000000 + i * 1000 FROM n;

-- 30 days of views for ${s.viewed} posts, ending today.
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${s.viewed * 30 - 1})
INSERT INTO blog_views_daily (blog_id, day, views)
SELECT ${post(`(i / 30) + 1`)}, date('now', '-' || (i % 30) || ' days'), 1 + (i % 7) FROM n;
`;
}

function sqlList(values) {
  return `CASE i % ${values.length} ${values.map((v, i) => `WHEN ${i} THEN '${v}'`).join(" ")} END`;
}

/** The session cookies a sign-in sets, as one Cookie header. */
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One request: its time (to the last byte), size, status and X-Cache. */
async function once(url, headers) {
  const started = performance.now();
  const res = await fetch(url, { headers, redirect: "manual" });
  const body = await res.arrayBuffer();
  return {
    ms: performance.now() - started,
    size: body.byteLength,
    status: res.status,
    cache: res.headers.get("X-Cache") ?? "",
  };
}

/** Seeds a site of `posts` posts in a throwaway state and serves it; returns its rows (name, URL, headers). */
async function prepareSite(posts, reuse) {
  const scale = scaleOf(posts);
  const started = performance.now();
  let stateDir = reuse;
  let sqlDir;
  if (!stateDir) {
    stateDir = await freshSeededState(`edge-blog-scale-${posts}-`);
    sqlDir = await mkdtemp(path.join(tmpdir(), "edge-blog-scale-sql-"));
    const file = path.join(sqlDir, "bulk.sql");
    await writeFile(file, seedSql(scale));
    const bulkStarted = performance.now();
    await run("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file], {
      env: { ...process.env, CI: "true" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const bulkSeconds = (performance.now() - bulkStarted) / 1000;
    console.log(
      `seeded ${JSON.stringify(scale)} in ${((performance.now() - started) / 1000).toFixed(0)} s (the bulk SQL: ${bulkSeconds.toFixed(0)} s) into ${stateDir}`,
    );
  } else {
    console.log(`reusing the seeded state ${stateDir} (${posts} posts)`);
  }
  const seedSeconds = (performance.now() - started) / 1000;
  const server = await startWrangler(["--persist-to", stateDir, ...VARS]);
  const base = server.baseURL;
  const writer = await signIn(base, "writer@edgeblog.test", "Writer#Demo2026");
  const admin = await signIn(base, "admin@edgeblog.test", "Admin#Demo2026");
  // Anonymous rows carry an Authorization header no session matches: the edge cache lets it pass
  // (a request with credentials is never served from the shared copy), so every run renders.
  const anon = { Authorization: "Bearer bench-past-the-edge-cache" };
  const total = Number((await fetch(`${base}/api/blogs?limit=1`)).headers.get("X-Total-Count"));
  const lastPage = Math.max(1, Math.ceil(total / 4));
  const writerId = (await (await fetch(`${base}/api/blog?email=writer%40edgeblog.test&limit=1`)).json())[0].author_id;
  const link = (await fetch(`${base}/api/blogs`, { headers: anon })).headers.get("Link") ?? "";
  const next = /<([^>]+)>; rel="next"/.exec(link)?.[1] ?? "/api/blogs?page=2";
  // The post's readable link (/blogs/{id}/{slug}): the bare /blogs/{id} answers a 301 to it.
  const newest = `/blogs/benchpost${String(posts).padStart(11, "0")}`;
  const moved = await fetch(`${base}${newest}`, { headers: anon, redirect: "manual" });
  const postPath = moved.headers.get("Location") ? new URL(moved.headers.get("Location"), base).pathname : newest;
  const rows = [
    ["GET /api/blogs", "/api/blogs", anon],
    ["GET /api/blogs?cursor (page 2)", next, anon],
    ["GET /api/blog?email= (the writer's)", "/api/blog?email=writer%40edgeblog.test", anon],
    ["GET /api/users (admin)", "/api/users", { Cookie: admin }],
    ["/dashboard/manageBlogs (writer)", "/dashboard/manageBlogs", { Cookie: writer }],
    [
      "/dashboard/manageBlogs last page",
      `/dashboard/manageBlogs?page=${Math.ceil((posts + 5) / 10)}`,
      { Cookie: writer },
    ],
    ["/dashboard/stats (admin)", "/dashboard/stats", { Cookie: admin }],
    ["/dashboard/stats (writer)", "/dashboard/stats", { Cookie: writer }],
    ["/Profile (writer)", "/Profile", { Cookie: writer }],
    ["/dashboard/manageUsers", "/dashboard/manageUsers", { Cookie: admin }],
    ["/dashboard/manageUsers?q=", "/dashboard/manageUsers?q=reader7", { Cookie: admin }],
    ["/dashboard/manageAllBlogs?q=", "/dashboard/manageAllBlogs?q=kestrel", { Cookie: admin }],
    ["/dashboard/myBlog (writer)", "/dashboard/myBlog", { Cookie: writer }],
    ["/allBlogs page 1", "/allBlogs", anon],
    ["/allBlogs last page", `/allBlogs?page=${lastPage}`, anon],
    ["/allBlogs?q=", "/allBlogs?q=kestrel", anon],
    ["/writers/{id}", `/writers/${writerId}`, anon],
    ["/allBlogs signed in", "/allBlogs", { Cookie: writer }],
    ["/saved (reading list)", "/saved", { Cookie: writer }],
    ["/sitemap.xml", "/sitemap.xml", anon],
    ["/sitemaps/posts-1.xml", "/sitemaps/posts-1.xml", anon],
    ["a post with its comments", postPath, anon],
    ["/ (home)", "/", anon],
    ["/rss.xml", "/rss.xml", anon],
    ["GET /api/latest-blogs", "/api/latest-blogs", anon],
  ]
    .filter(([name]) => !ONLY.length || ONLY.some((part) => name.includes(part)))
    .map(([name, pathname, headers]) => ({ name, url: `${base}${pathname}`, headers }));
  const stop = async () => {
    server.stop();
    await new Promise((r) => setTimeout(r, 500));
    if (sqlDir) await rm(sqlDir, { recursive: true, force: true });
    if (!process.argv.includes("--keep") && !reuse) await rm(stateDir, { recursive: true, force: true });
  };
  return { scale, seedSeconds, rows, stop };
}

const kb = (n) => `${(n / 1024).toFixed(n < 10_240 ? 1 : 0)} KB`;

// Both sites are served at once and every row is asked of each in turn (small, large, small, ...), so
// whatever else the machine is doing weighs on both columns alike.
const small = await prepareSite(SMALL, text("reuse-small"));
let large;
try {
  large = await prepareSite(LARGE, text("reuse-large"));
} catch (err) {
  await small.stop();
  throw err;
}
const results = { small: new Map(), large: new Map() };
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
      // The first of each is a warm-up (workerd compiles, SQLite reads its pages in).
      if (i > 0) {
        ta.push(x.ms);
        tb.push(y.ms);
      }
      last = [x, y];
    }
    results.small.set(a.name, { ...last[0], ms: median(ta) });
    results.large.set(a.name, { ...last[1], ms: median(tb) });
  }
} finally {
  await small.stop();
  await large.stop();
}

const LIMIT_BYTES = 300 * 1024;
console.log(
  `\nMedian of ${RUNS} requests past the edge cache, wrangler dev on this machine; seeding took ${small.seedSeconds.toFixed(0)} s and ${large.seedSeconds.toFixed(0)} s.\n`,
);
console.log(
  `| answer | ${SMALL.toLocaleString("en-US")} posts | ${LARGE.toLocaleString("en-US")} posts | time ratio | goal |`,
);
console.log("|---|---|---|---|---|");
let failures = 0;
for (const [name, a] of results.small) {
  const b = results.large.get(name);
  const ratio = b.ms / a.ms;
  const sitemapFile = name.startsWith("/sitemaps/");
  const sizeOk = sitemapFile || b.size <= LIMIT_BYTES;
  const ok = sizeOk && ratio <= 1.5 && b.status < 400 && a.status < 400;
  if (!ok) failures++;
  console.log(
    `| ${name} | ${a.ms.toFixed(0)} ms, ${kb(a.size)} | ${b.ms.toFixed(0)} ms, ${kb(b.size)} | ${ratio.toFixed(2)}x | ${ok ? "met" : `MISSED${b.status >= 400 ? ` (${b.status})` : ""}`} |`,
  );
}
console.log(`\n${failures ? `${failures} rows missed the goal.` : "Every row met the goal."}`);
