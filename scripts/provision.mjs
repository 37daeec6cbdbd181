#!/usr/bin/env node
// `npm run deploy`: everything wrangler.toml names, created in your Cloudflare account when missing, then
// the migrations and the deploy. Safe to run again: it lists what exists first and creates only the rest.
//   npm run deploy                 provision + migrate + deploy (asks for the secrets it needs on a terminal)
//   npm run deploy -- --dry-run    print each wrangler command it would run, change nothing
// Secrets come from the environment when set (ADMIN_EMAILS, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET,
// SESSION_SECRET), else from a prompt on a terminal; SESSION_SECRET is generated when absent.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const configPath = process.env.PROVISION_CONFIG ?? path.join(root, "wrangler.toml");
const dryRun = process.argv.includes("--dry-run");
const PLACEHOLDER_ID = "00000000-0000-0000-0000-000000000000";

/** The secrets the Worker reads that wrangler.toml does not hold, and how each is obtained. */
const SECRETS = [
  { name: "SESSION_SECRET", ask: null, generate: () => randomBytes(48).toString("base64url") },
  { name: "ADMIN_EMAILS", ask: "Admin email addresses (comma-separated; they become admins once verified): " },
  { name: "GOOGLE_CLIENT_ID", ask: "Google OAuth client id (empty: no Google sign-in): " },
  { name: "GOOGLE_CLIENT_SECRET", ask: "Google OAuth client secret (empty: no Google sign-in): " },
];

const say = (line) => console.log(line);

/** Runs wrangler and returns its output; in a dry run, reads still run (they change nothing), writes print. */
function wrangler(args, { write = false, input } = {}) {
  const shown = `wrangler ${args.join(" ")}`;
  if (write && dryRun) {
    say(`would run: ${shown}`);
    return { ok: true, out: "" };
  }
  if (write) say(`running: ${shown}`);
  const res = spawnSync("wrangler", args, { cwd: root, encoding: "utf8", input, env: { ...process.env } });
  if (res.error) throw new Error(`${shown}: ${res.error.message}`);
  const out = `${res.stdout ?? ""}${res.stderr ?? ""}`;
  if (write && res.status !== 0) throw new Error(`${shown} failed:\n${out}`);
  return { ok: res.status === 0, out };
}

/** Whether `name` appears in a list command's output as a whole name (not as the prefix of "<name>-dlq"). */
const listed = (out, name) =>
  new RegExp(`(^|[\\s"'│|,:])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[\\s"'│|,])`, "m").test(out);

async function readWranglerConfig() {
  const { experimental_readRawConfig } = await import("wrangler");
  return experimental_readRawConfig({ config: configPath }).rawConfig;
}

async function main() {
  const config = await readWranglerConfig();
  say(dryRun ? "Dry run: reading your account, changing nothing." : "Provisioning the resources wrangler.toml names.");

  // D1: found by name, else created; its id is written back to wrangler.toml.
  for (const db of config.d1_databases ?? []) {
    const list = wrangler(["d1", "list", "--json"]);
    let id = null;
    try {
      id = JSON.parse(list.out.slice(list.out.indexOf("["))).find((d) => d.name === db.database_name)?.uuid ?? null;
    } catch {
      id = null;
    }
    if (id) say(`exists: D1 database ${db.database_name} (${id})`);
    else {
      const created = wrangler(["d1", "create", db.database_name], { write: true });
      id = created.out.match(/database_id"?\s*[=:]\s*"([0-9a-f-]{36})"/)?.[1] ?? (dryRun ? "<new id>" : null);
      if (!id) throw new Error(`could not read the new database's id from:\n${created.out}`);
    }
    if (db.database_id !== id && !dryRun) {
      const toml = readFileSync(configPath, "utf8");
      writeFileSync(configPath, toml.replace(`database_id = "${db.database_id}"`, `database_id = "${id}"`));
      say(`wrote database_id = "${id}" to ${path.relative(root, configPath)}`);
    } else if (db.database_id === PLACEHOLDER_ID && dryRun) say(`would write the database id to wrangler.toml`);
  }

  // R2 buckets.
  const buckets = (config.r2_buckets ?? []).map((b) => b.bucket_name);
  if (buckets.length) {
    const out = wrangler(["r2", "bucket", "list"]).out;
    for (const name of buckets) {
      if (listed(out, name)) say(`exists: R2 bucket ${name}`);
      else wrangler(["r2", "bucket", "create", name], { write: true });
    }
  }

  // Queues: every producer, consumer and dead-letter queue.
  const queues = new Set();
  for (const p of config.queues?.producers ?? []) queues.add(p.queue);
  for (const c of config.queues?.consumers ?? []) {
    queues.add(c.queue);
    if (c.dead_letter_queue) queues.add(c.dead_letter_queue);
  }
  if (queues.size) {
    const out = wrangler(["queues", "list"]).out;
    for (const name of [...queues].sort()) {
      if (listed(out, name)) say(`exists: queue ${name}`);
      else wrangler(["queues", "create", name], { write: true });
    }
  }

  // Secrets: only those the Worker does not have yet (a first deploy has none).
  const secretList = wrangler(["secret", "list", "--format", "json"]);
  let have = [];
  try {
    have = secretList.ok ? JSON.parse(secretList.out.slice(secretList.out.indexOf("["))).map((s) => s.name) : [];
  } catch {
    have = [];
  }
  const missing = SECRETS.filter((s) => !have.includes(s.name));
  const secrets = {};
  const prompt =
    process.stdin.isTTY && !dryRun ? createInterface({ input: process.stdin, output: process.stdout }) : null;
  for (const s of SECRETS) if (have.includes(s.name)) say(`exists: secret ${s.name}`);
  for (const s of missing) {
    let value = process.env[s.name] ?? "";
    if (!value && s.ask && prompt) value = (await prompt.question(s.ask)).trim();
    if (!value && s.generate) value = s.generate();
    if (value) secrets[s.name] = value;
    else say(`left unset: secret ${s.name}`);
  }
  prompt?.close();

  // Build, migrate, deploy (with the new secrets in the same upload, so the Worker never runs without them).
  if (dryRun) say("would run: npm run build");
  else {
    const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  for (const db of config.d1_databases ?? [])
    wrangler(["d1", "migrations", "apply", db.binding, "--remote"], { write: true, input: "y\n" });
  const deployArgs = ["deploy"];
  let secretsDir = null;
  if (Object.keys(secrets).length) {
    secretsDir = mkdtempSync(path.join(tmpdir(), "edge-blog-secrets-"));
    const file = path.join(secretsDir, "secrets.json");
    if (!dryRun) writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
    deployArgs.push("--secrets-file", file);
    say(`new secrets in this deploy: ${Object.keys(secrets).join(", ")}`);
  }
  try {
    wrangler(deployArgs, { write: true });
  } finally {
    if (secretsDir) rmSync(secretsDir, { recursive: true, force: true });
  }
  say(dryRun ? "Dry run done: nothing was changed." : "Deployed.");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
