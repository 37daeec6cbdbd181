#!/usr/bin/env node
// `npm run bench:og`: how long a share card (/blogs/{id}/og.png) takes to draw as `wrangler dev` runs the
// Worker (workerd, the production runtime). A writer named 王小明 publishes posts in several scripts; for
// each, the first card is drawn (cold: the isolate's first card instantiates resvg's wasm and fetches
// its fonts), then more posts in the same script are drawn warm (wasm and fonts kept by the isolate),
// and a card already drawn is read back from R2 (a cache-busting `?x=` query misses the edge cache).
// `--save <dir>` also writes each script's card there, to look at.
import { mkdirSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { freshSeededState, startWrangler } from "./lib/local.mjs";

const SECRET = "bench-session-secret-0123456789abcdef0123456789";
const saveAt = process.argv.indexOf("--save");
const saveDir = saveAt > 0 ? path.resolve(process.argv[saveAt + 1] ?? "og-cards") : null;
const WARM = 5;

const SCRIPTS = [
  ["Latin", "Café culture at the edge: caching without tears"],
  ["CJK + Greek + Latin", "我的FTP Server 测试 — Ελληνικά café"],
  ["Cyrillic", "Пишем быстрые сайты на краю сети"],
  ["Japanese + Korean", "東京のカフェで書いたブログ 그리고 서울의 밤"],
  ["Arabic (RTL)", "مقدمة إلى Python 3 للمبتدئين في العالم العربي"],
  ["Hebrew (RTL)", "מדריך קצר לכתיבת בלוג מהיר בעברית"],
  [
    "Long Latin (cut to three lines)",
    "An unreasonably long title that goes on and on about edge rendering, fonts, and the many scripts of the world until it must be cut",
  ],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(url, headers = {}) {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - started;
  if (res.status !== 200 || res.headers.get("content-type") !== "image/png")
    throw new Error(`${url}: ${res.status} ${res.headers.get("content-type")}`);
  return { ms, bytes };
}

let stateDir;
let server;
try {
  stateDir = await freshSeededState("edge-blog-og-bench-");
  server = await startWrangler(["--persist-to", stateDir, "--var", `SESSION_SECRET:${SECRET}`]);
  const { baseURL } = server;
  const signup = await fetch(`${baseURL}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseURL },
    body: JSON.stringify({
      name: "王小明",
      email: `og-bench-${Date.now()}@edgeblog.test`,
      password: "Bench#Cards2026",
    }),
  });
  if (signup.status !== 201) throw new Error(`register: ${signup.status} ${await signup.text()}`);
  const auth = { Authorization: `Bearer ${(await signup.json()).token}`, Origin: baseURL };
  const [newest] = await (await fetch(`${baseURL}/api/latest-blogs`)).json();
  let n = 0;
  const publish = async (title) => {
    const res = await fetch(`${baseURL}/api/blogs`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        title,
        short_description: "A post for the share-card bench.",
        blog_details: "Words.",
        category: "Technology",
        date_time: new Date().toISOString(),
        image: newest.image,
      }),
    });
    if (res.status !== 201) throw new Error(`publish: ${res.status} ${await res.text()}`);
    return `${baseURL}/blogs/${(await res.json()).insertedId}/og.png`;
  };

  const rows = [];
  for (const [script, title] of SCRIPTS) {
    const first = await timed(await publish(title));
    if (saveDir) {
      mkdirSync(saveDir, { recursive: true });
      writeFileSync(
        path.join(saveDir, `${String(++n).padStart(2, "0")}-${script.replace(/\W+/g, "-")}.png`),
        first.bytes,
      );
    }
    const warm = [];
    for (let i = 0; i < WARM; i++) warm.push((await timed(await publish(`${title} ${i + 2}`))).ms);
    const url = await publish(`${title} (stored)`);
    await timed(url);
    const stored = [];
    for (let i = 0; i < WARM; i++) stored.push((await timed(`${url}?x=${i}`)).ms);
    rows.push({ script, first: first.ms, warm: median(warm), stored: median(stored), kb: first.bytes.length / 1024 });
  }
  console.log(
    `share-card bench (wrangler dev, ${WARM} warm draws per script, medians; first = first card of that script)`,
  );
  console.log("| script | first card (ms) | warm draw (ms) | stored, R2 read (ms) | PNG (KB) |");
  console.log("|---|---:|---:|---:|---:|");
  for (const r of rows)
    console.log(
      `| ${r.script} | ${r.first.toFixed(0)} | ${r.warm.toFixed(0)} | ${r.stored.toFixed(0)} | ${r.kb.toFixed(0)} |`,
    );
  if (saveDir) console.log(`cards saved in ${saveDir}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  server?.stop();
  await new Promise((r) => setTimeout(r, 300));
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
}
