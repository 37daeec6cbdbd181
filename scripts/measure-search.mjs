#!/usr/bin/env node
// Search latency over 10,000 generated posts, through `wrangler dev` over HTTP (npm run bench:search).
// Seeds a throwaway local database (a temp --persist-to folder, never .wrangler/state), starts
// wrangler dev on it, and asks /allBlogs.data?q=... (the all-blogs page's loader: ranked FTS page,
// total, sidebar) with many different queries: whole words, two words, prefixes, accents, no match.
// Every request carries a unique extra parameter so the edge cache never answers: each is a real search.
//   node scripts/measure-search.mjs [posts=10000] [requests=600]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateLocal, run, startWrangler } from "./lib/local.mjs";

const POSTS = Number(process.argv[2] ?? 10_000);
const REQUESTS = Number(process.argv[3] ?? 600);

// A small seeded PRNG (mulberry32), so every run seeds the same posts.
let seed = 13;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const CATEGORIES = [
  "Technology",
  "Travel",
  "Health",
  "Finance",
  "Food",
  "Science",
  "Lifestyle",
  "Education",
  "AI",
  "Business",
];
const WORDS = (
  "edge cache worker database query index search ranking latency budget travel mountain river city café " +
  "crêpe résumé naïve garden kitchen recipe coffee bread market startup invoice salary savings health sleep " +
  "running muscle protein science planet galaxy ocean climate energy battery solar learning teacher lesson " +
  "student exam writing editor story photo camera music guitar piano language history museum design pattern " +
  "network security password privacy testing deploy release feature product customer growth marketing habit " +
  "morning evening weekend holiday journey island forest desert volcano glacier harbour bridge tower"
).split(" ");
const FILLER = "the a of and to in with for on at from by about into over after".split(" ");
const sentence = (n) => Array.from({ length: n }, (_, i) => (i % 3 === 2 ? pick(FILLER) : pick(WORDS))).join(" ");
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const sqlText = (s) => `'${s.replaceAll("'", "''")}'`;

async function seedPosts(stateDir) {
  const lines = [
    "INSERT INTO users (id, name, email, role) VALUES ('benchwriter0000000001', 'Bench Writer', 'bench@example.com', 'user');",
  ];
  const day = 86_400_000;
  for (let i = 0; i < POSTS; i++) {
    const id = `bench${String(i).padStart(15, "0")}`;
    const title = capital(sentence(4 + Math.floor(random() * 5)));
    const short = capital(sentence(12));
    const details = Array.from({ length: 4 }, () => `${capital(sentence(40))}.`).join("\n\n");
    const date = new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 700) * day).toISOString();
    const writer = `${capital(pick(WORDS))} ${capital(pick(WORDS))}`;
    lines.push(
      `INSERT INTO blogs (id, author_id, title, short_description, blog_details, category, author_name, email, date_time, image) VALUES (${[
        id,
        "benchwriter0000000001",
        title,
        short,
        details,
        pick(CATEGORIES),
        writer,
        "bench@example.com",
        date,
        "/images/seed-01.jpg",
      ]
        .map(sqlText)
        .join(", ")});`,
    );
  }
  const file = path.join(stateDir, "bench-posts.sql");
  await writeFile(file, lines.join("\n"));
  await run("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file], {
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Many different queries of five kinds, as readers type them. */
function queries() {
  const kinds = {
    "one word": () => pick(WORDS),
    "two words": () => `${pick(WORDS)} ${pick(WORDS)}`,
    "prefix (typing)": () => {
      const w = pick(WORDS);
      return `${pick(WORDS)} ${w.slice(0, 2 + Math.floor(random() * 3))}`;
    },
    "accents folded": () => pick(["cafe", "CAFÉ", "crepe", "resume", "naive", "Résumé café", "naïve garden"]),
    "no match": () => `${pick(WORDS)} zzqx${Math.floor(random() * 1000)}`,
    // The same page without words (newest first, no FTS): what the page costs around the search.
    "baseline: no words": () => "",
  };
  const list = [];
  const names = Object.keys(kinds);
  for (let i = 0; i < REQUESTS; i++) {
    const kind = names[i % names.length];
    list.push({ kind, q: kinds[kind]() });
  }
  return list;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const stateDir = await mkdtemp(path.join(tmpdir(), "bench-search-"));
let stop = () => {};
try {
  console.error(`Seeding ${POSTS} posts into ${stateDir} ...`);
  await migrateLocal(stateDir);
  const seedStart = performance.now();
  await seedPosts(stateDir);
  console.error(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const server = await startWrangler([
    "--persist-to",
    stateDir,
    "--var",
    "SESSION_SECRET:bench-session-secret-0123456789abcdef0123456789",
  ]);
  stop = server.stop;

  const ask = async (q, i) => {
    const url = `${server.baseURL}/allBlogs.data?q=${encodeURIComponent(q)}&bench=${i}`;
    const start = performance.now();
    const res = await fetch(url);
    const body = await res.arrayBuffer();
    if (res.status !== 200)
      throw new Error(`${url} answered ${res.status}: ${new TextDecoder().decode(body).slice(0, 500)}`);
    return performance.now() - start;
  };
  for (let i = 0; i < 20; i++) await ask(pick(WORDS), -1 - i); // warm-up: JIT, first D1 pages

  const byKind = new Map();
  const all = [];
  let i = 0;
  for (const { kind, q } of queries()) {
    const ms = await ask(q, i++);
    all.push(ms);
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push(ms);
  }
  console.log(`Search over ${POSTS} posts, ${REQUESTS} sequential requests to /allBlogs.data?q= through wrangler dev`);
  console.log("");
  console.log("| queries | n | p50 ms | p95 ms | max ms |");
  console.log("|---|---|---|---|---|");
  for (const [kind, times] of [...byKind, ["all", all]]) {
    times.sort((a, b) => a - b);
    console.log(
      `| ${kind} | ${times.length} | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)} | ${times.at(-1).toFixed(1)} |`,
    );
  }
} finally {
  stop();
  await rm(stateDir, { recursive: true, force: true });
}
