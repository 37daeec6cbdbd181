#!/usr/bin/env node
// `npm run bench:newsletter`: fans one post out to N confirmed subscribers (10,000 unless given) through
// the newsletter queue as `wrangler dev` emulates it (producer, consumer, batches, the EMAIL binding),
// and prints messages per second with the batch settings. Local only: a fresh state folder, removed after.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freshSeededState, root, run, startWrangler } from "./lib/local.mjs";

const COUNT = Number(process.argv[2] ?? 10_000);
const SECRET = "bench-session-secret-0123456789abcdef0123456789";
const WRITER = { email: "writer@edgeblog.test", password: "Writer#Demo2026" };
const ADMIN = { email: "admin@edgeblog.test", password: "Admin#Demo2026" };

let stateDir;
let server;
let sqlDir;
try {
  stateDir = await freshSeededState("edge-blog-newsletter-bench-");
  // N confirmed subscribers, written straight into the local D1.
  sqlDir = await mkdtemp(path.join(tmpdir(), "newsletter-bench-sql-"));
  const lines = [];
  const now = Date.now();
  for (let i = 0; i < COUNT; i++) {
    const id = `bench${i.toString(36).padStart(8, "0")}`;
    lines.push(`('${id}', 'reader-${i}@bench.example', 'confirmed', ${now}, ${now})`);
  }
  const sql = [];
  for (let i = 0; i < lines.length; i += 500) {
    sql.push(
      `insert into newsletter_subscriptions (id, email, state, confirmed_at, created_at) values ${lines.slice(i, i + 500).join(",\n")};`,
    );
  }
  const file = path.join(sqlDir, "subscribers.sql");
  await writeFile(file, sql.join("\n"));
  await run("wrangler", ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--file", file], {
    env: { ...process.env, CI: "true" },
    stdio: "ignore",
  });

  server = await startWrangler([
    "--persist-to",
    stateDir,
    "--var",
    `SESSION_SECRET:${SECRET}`,
    "--var",
    "ADMIN_EMAILS:admin@edgeblog.test",
  ]);
  const { baseURL } = server;
  const login = async (who) => {
    const res = await fetch(`${baseURL}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(who),
    });
    if (!res.ok) throw new Error(`login ${who.email}: ${res.status} ${await res.text()}`);
    return `Bearer ${(await res.json()).token}`;
  };
  const writer = await login(WRITER);
  const admin = await login(ADMIN);

  const started = performance.now();
  const created = await fetch(`${baseURL}/api/blogs`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: writer },
    body: JSON.stringify({
      title: "Newsletter bench",
      short_description: "One post to every subscriber.",
      blog_details: "Measured by npm run bench:newsletter.",
      category: "Technology",
      date_time: new Date().toISOString(),
      image: "https://example.com/cover.png",
    }),
  });
  if (!created.ok) throw new Error(`publish: ${created.status} ${await created.text()}`);
  const { insertedId } = await created.json();

  let send;
  let last = -1;
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const res = await fetch(`${baseURL}/api/newsletter/sends`, { headers: { Authorization: admin } });
    send = (await res.json()).sends.find((s) => s.blog_id === insertedId);
    const done = send ? send.sent + send.failed : 0;
    if (done !== last) {
      process.stdout.write(`\r  ${done} / ${COUNT} messages out`);
      last = done;
    }
    if (send && send.completed && done >= COUNT) break;
    if (Date.now() > deadline) throw new Error("the fan-out did not finish within 30 minutes");
    await new Promise((r) => setTimeout(r, 500));
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write("\n");

  const toml = await readFile(path.join(root, "wrangler.toml"), "utf8");
  const consumer = toml.slice(toml.indexOf("[[queues.consumers]]")).split("\n\n")[0];
  const setting = (name) => consumer.match(new RegExp(`^${name}\\s*=\\s*(.+)$`, "m"))?.[1] ?? "?";
  console.log(`newsletter fan-out: ${COUNT} subscribers, ${send.sent} sent, ${send.failed} failed`);
  console.log(
    `  ${seconds.toFixed(1)} s from publish to the last message: ${(send.sent / seconds).toFixed(0)} messages/s`,
  );
  console.log(
    `  queue: max_batch_size=${setting("max_batch_size")} max_batch_timeout=${setting("max_batch_timeout")} max_retries=${setting("max_retries")}; fan-out pages of 500, send jobs of 25, 5 sends at a time (worker/services/newsletter/model.ts FANOUT)`,
  );
  console.log(
    "  local emulation: wrangler dev (workerd, D1 on disk, EMAIL writes each message to .wrangler/tmp/email)",
  );
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  server?.stop();
  await new Promise((r) => setTimeout(r, 300));
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
  if (sqlDir) await rm(sqlDir, { recursive: true, force: true });
}
