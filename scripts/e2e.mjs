#!/usr/bin/env node
// `npm run test:e2e`: serve the built app with wrangler dev on a free port against a fresh,
// seeded local state, run the Playwright specs in Debian's Chromium, and always stop the server.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateLocal, root, run } from "./lib/local.mjs";

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function waitForHealth(url, server, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error("wrangler dev exited before it was ready");
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000}s`);
}

/** Values the e2e server runs with, whatever the developer's own .dev.vars says. */
export const E2E_VARS = {
  SESSION_SECRET: "e2e-session-secret-0123456789abcdef0123456789",
  ADMIN_EMAILS: "admin@edgeblog.test",
  OWNER_NAME: "Edge Blog Ltd",
  GOOGLE_CLIENT_ID: "",
  GOOGLE_CLIENT_SECRET: "",
};

const stateDir = await mkdtemp(path.join(tmpdir(), "edge-blog-e2e-"));
const port = await freePort();
const baseURL = `http://127.0.0.1:${port}`;
let server;
let exitCode = 1;

const stop = () => {
  if (server && server.exitCode === null) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
};
process.on("SIGINT", () => {
  stop();
  process.exit(130);
});

try {
  await migrateLocal(stateDir);
  await run("node", ["scripts/seed.mjs", "--persist-to", stateDir]);
  const vars = Object.entries(E2E_VARS).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  server = spawn(
    "wrangler",
    [
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
      ...vars,
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true, env: { ...process.env, CI: "true" } },
  );
  const log = [];
  server.stdout.on("data", (d) => log.push(d));
  server.stderr.on("data", (d) => log.push(d));
  try {
    await waitForHealth(`${baseURL}/api/health`, server);
  } catch (err) {
    process.stderr.write(Buffer.concat(log));
    throw err;
  }
  console.log(`e2e: serving ${baseURL} from ${stateDir}`);
  const extra = process.argv.slice(2);
  exitCode = await new Promise((resolve) => {
    const pw = spawn("playwright", ["test", ...extra], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, E2E_BASE_URL: baseURL, E2E_STATE_DIR: stateDir },
    });
    pw.on("exit", (code) => resolve(code ?? 1));
  });
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  exitCode = 1;
} finally {
  stop();
  await new Promise((r) => setTimeout(r, 300));
  await rm(stateDir, { recursive: true, force: true });
}
process.exit(exitCode);
