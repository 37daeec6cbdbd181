// `npm run deploy` (scripts/provision.mjs) against a stub wrangler on PATH: a first run creates every
// resource wrangler.toml names and writes the database id back; a second run creates nothing.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const { experimental_readRawConfig } = await import("wrangler");

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "provision-test-"));
  const config = path.join(dir, "wrangler.toml");
  copyFileSync(path.join(root, "wrangler.toml"), config);
  return { dir, config, state: path.join(dir, "state.json"), log: path.join(dir, "calls.log") };
}

function provision(t, ...args) {
  const res = spawnSync(process.execPath, [path.join(root, "scripts/provision.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      PATH: `${path.join(here, "stub-bin")}${path.delimiter}${process.env.PATH}`,
      PROVISION_CONFIG: t.config,
      STUB_WRANGLER_STATE: t.state,
      STUB_WRANGLER_LOG: t.log,
      ADMIN_EMAILS: "owner@example.com",
      GOOGLE_CLIENT_ID: "",
      GOOGLE_CLIENT_SECRET: "",
      SESSION_SECRET: "",
    },
  });
  assert.equal(res.status, 0, `${res.stdout}\n${res.stderr}`);
  const calls = readFileSync(t.log, "utf8").trim().split("\n");
  return { out: res.stdout, calls };
}

/** Every resource wrangler.toml names. */
function expected(configPath) {
  const c = experimental_readRawConfig({ config: configPath }).rawConfig;
  const queues = new Set();
  for (const p of c.queues.producers) queues.add(p.queue);
  for (const q of c.queues.consumers) [q.queue, q.dead_letter_queue].filter(Boolean).forEach((n) => queues.add(n));
  return { db: c.d1_databases.map((d) => d.database_name), r2: c.r2_buckets.map((b) => b.bucket_name), queues };
}

test("the first run creates everything, the second creates nothing", () => {
  const t = setup();
  const want = expected(t.config);
  assert.ok(want.queues.size >= 8, "four queues and four dead-letter queues at least");

  const first = provision(t);
  const creates = first.calls.filter((c) => / create /.test(` ${c} `));
  assert.deepEqual(
    creates.filter((c) => c.startsWith("d1 create")),
    want.db.map((n) => `d1 create ${n}`),
  );
  assert.deepEqual(
    creates.filter((c) => c.startsWith("r2 bucket create")),
    want.r2.map((n) => `r2 bucket create ${n}`),
  );
  assert.deepEqual(
    creates.filter((c) => c.startsWith("queues create")).sort(),
    [...want.queues].sort().map((n) => `queues create ${n}`),
  );
  const deploy = first.calls.find((c) => c.startsWith("deploy"));
  assert.match(deploy, /--secrets-file/, "the new secrets go up with the first deploy");
  assert.ok(first.calls.includes("d1 migrations apply DB --remote"));
  assert.ok(first.calls.indexOf("npm run build") < first.calls.indexOf(deploy));
  const state = JSON.parse(readFileSync(t.state, "utf8"));
  assert.deepEqual(state.secrets.sort(), ["ADMIN_EMAILS", "SESSION_SECRET"]);
  const id = state.d1[0].uuid;
  assert.match(readFileSync(t.config, "utf8"), new RegExp(`database_id = "${id}"`));

  const before = first.calls.length;
  const second = provision(t);
  const again = second.calls.slice(before);
  assert.deepEqual(
    again.filter((c) => / create /.test(` ${c} `)),
    [],
    "nothing is created twice",
  );
  assert.ok(!again.find((c) => c.startsWith("deploy")).includes("--secrets-file"), "secrets already there are kept");
  assert.match(second.out, /exists: D1 database/);
});

test("--dry-run prints each command it would run and changes nothing", () => {
  const t = setup();
  const want = expected(t.config);
  const { out, calls } = provision(t, "--dry-run");
  for (const n of want.queues) assert.match(out, new RegExp(`would run: wrangler queues create ${n}\\n`));
  for (const n of want.r2) assert.match(out, new RegExp(`would run: wrangler r2 bucket create ${n}\\n`));
  for (const n of want.db) assert.match(out, new RegExp(`would run: wrangler d1 create ${n}\\n`));
  assert.match(out, /would run: wrangler d1 migrations apply DB --remote/);
  assert.match(out, /would run: wrangler deploy/);
  assert.deepEqual(
    calls.filter((c) => / create |^deploy|migrations apply/.test(` ${c}`)),
    [],
  );
  assert.equal(readFileSync(t.config, "utf8"), readFileSync(path.join(root, "wrangler.toml"), "utf8"));
});
