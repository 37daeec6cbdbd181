#!/usr/bin/env node
// `npm run bench`: a hello-world Worker and the app, both through `wrangler dev` on this machine, loaded
// by autocannon from this one process, one after the other. Prints requests per second and p50/p99
// latency for the cached anonymous pages and API, and for a signed-in post page, each as a ratio of
// hello-world's. Usage: npm run bench [-- --seconds 8 --connections 10]
import autocannon from "autocannon";
import { rm } from "node:fs/promises";
import path from "node:path";
import { freshSeededState, root, startWrangler } from "./lib/local.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg("seconds", 8);
const connections = arg("connections", 10);
const VARS = ["--var", "SESSION_SECRET:bench-session-secret-0123456789abcdef0123456789"];

function load(url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const servers = [];
let stateDir;
try {
  const hello = await startWrangler(["--config", path.join(root, "scripts/bench/hello.toml")], "/");
  servers.push(hello);
  stateDir = await freshSeededState("edge-blog-bench-");
  const app = await startWrangler(["--persist-to", stateDir, ...VARS]);
  servers.push(app);

  const [first] = await (await fetch(`${app.baseURL}/api/latest-blogs`)).json();
  const login = await fetch(`${app.baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "writer@edgeblog.test", password: "Writer#Demo2026" }),
  });
  const session = login.headers
    .getSetCookie()
    .find((c) => c.startsWith("session="))
    ?.split(";")[0];
  if (!session) throw new Error(`could not sign in for the signed-in row (${login.status})`);

  const rows = [
    ["hello-world", `${hello.baseURL}/`, {}],
    ["/ (cached)", `${app.baseURL}/`, {}],
    ["/allBlogs (cached)", `${app.baseURL}/allBlogs`, {}],
    ["/blogs/{id} (cached)", `${app.baseURL}/blogs/${first._id}`, {}],
    ["/api/blogs (cached)", `${app.baseURL}/api/blogs`, {}],
    ["/blogs/{id} signed in", `${app.baseURL}/blogs/${first._id}`, { Cookie: session }],
  ];
  const results = [];
  for (const [name, url, headers] of rows) {
    // Warm: the first anonymous request fills the cache (and workerd's JIT).
    for (let i = 0; i < 5; i++) await (await fetch(url, { headers })).arrayBuffer();
    const outcome = (await fetch(url, { headers })).headers.get("X-Cache") ?? "-";
    const r = await load(url, headers);
    results.push({
      name,
      outcome,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
    });
  }
  const base = results[0];
  console.log(`\n${connections} connections, ${seconds} s each, wrangler dev on this machine\n`);
  console.log("| path | X-Cache | req/s | vs hello-world | p50 ms | p50 vs hello | p99 ms | errors |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.outcome} | ${r.rps.toFixed(0)} | ${((100 * r.rps) / base.rps).toFixed(0)} % | ${r.p50} | ${(r.p50 / Math.max(base.p50, 1)).toFixed(2)}x | ${r.p99} | ${r.errors} |`,
    );
  }
} finally {
  for (const s of servers) s.stop();
  await new Promise((r) => setTimeout(r, 300));
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
}
