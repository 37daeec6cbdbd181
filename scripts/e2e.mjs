#!/usr/bin/env node
// `npm run test:e2e`: serve the built app with wrangler dev on a free port against a fresh,
// seeded local state, run the Playwright specs in Debian's Chromium, and always stop the server.
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { freePort, freshSeededState, root, startWrangler } from "./lib/local.mjs";

/** Values the e2e server runs with, whatever the developer's own .dev.vars says. */
export const E2E_VARS = {
  SESSION_SECRET: "e2e-session-secret-0123456789abcdef0123456789",
  // The second address has no account: tests/e2e/account-takeover.spec.ts signs up with it as a squatter.
  ADMIN_EMAILS: "admin@edgeblog.test, owner@edgeblog.test",
  OWNER_NAME: "Edge Blog Ltd",
  GOOGLE_CLIENT_ID: "",
  GOOGLE_CLIENT_SECRET: "",
  // The import journey serves its images from a server on this machine (tests/e2e/import.spec.ts).
  IMPORT_ALLOW_PRIVATE_HOSTS: "true",
  // The fediverse spec's remote account is served from this machine over http (tests/e2e/fediverse.spec.ts).
  FEDERATION_ALLOW_PRIVATE: "true",
};

let stateDir;
let server;
let exitCode = 1;
process.on("SIGINT", () => {
  server?.stop();
  process.exit(130);
});

try {
  stateDir = await freshSeededState("edge-blog-e2e-");
  // The site knows its own address, as a deployment does (SITE_URL): work done outside a request (the queues:
  // a fediverse reply acted on by the inbox queue, a mail's links) has no request URL to learn it from.
  // Browsed as localhost, the name every spec uses (WebAuthn refuses an IP address as its relying party),
  // so the site's links, its cookies and the browser agree on one host.
  const port = await freePort();
  const siteUrl = `http://localhost:${port}`;
  const vars = Object.entries({ ...E2E_VARS, SITE_URL: siteUrl }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  // --test-scheduled: specs run the crons themselves at /__scheduled (wrangler dev runs none).
  server = await startWrangler(["--persist-to", stateDir, "--test-scheduled", ...vars], "/api/health", port);
  const baseURL = siteUrl;
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
  // A failed run shows the server's last words (a queue consumer's error is only logged there).
  if (exitCode !== 0 && server) {
    const lines = server.logTail(Infinity).split("\n");
    const telling = lines.filter((l) => /error|warn|queue|inbox|fail/i.test(l) && !/analytics\/hit/.test(l));
    console.error(`\nwrangler dev's errors, warnings and queue lines:\n${telling.slice(-60).join("\n")}`);
  }
  server?.stop();
  await new Promise((r) => setTimeout(r, 300));
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
}
process.exit(exitCode);
