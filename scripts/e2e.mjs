#!/usr/bin/env node
// `npm run test:e2e`: serve the built app with wrangler dev against fresh, seeded local states, run the
// Playwright specs in Debian's Chromium, and always stop the servers. Needs `npm run build` first
// (`npm run test:e2e` builds; `.ci/run` builds once and calls this script directly).
//
// Parallel: `--servers N` (default 2, or E2E_SERVERS_COUNT) starts N wrangler dev instances, each on its own
// copy of one seeded state, and runs Playwright with N workers; a worker talks only to its own server
// (playwright.config.ts maps TEST_PARALLEL_INDEX to a server), so specs never share state across workers.
// `--runs N` plays the whole suite N times in a row, each on fresh states, and prints each run's time.
// Any other argument goes to Playwright (spec files, `--repeat-each=N`, `--grep`, ...).
import { spawn } from "node:child_process";
import { cp, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { freePort, freshSeededState, root, startWrangler } from "./lib/local.mjs";
import { startStripeStandIn } from "./lib/stripe-stand-in.mjs";

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
  // Paid memberships against a local stand-in for Stripe (scripts/lib/stripe-stand-in.mjs, one per server,
  // its address passed as STRIPE_API_BASE): test keys that reach nothing else (tests/e2e/memberships.spec.ts).
  STRIPE_SECRET_KEY: "sk_test_e2eStandInKey0123456789",
  STRIPE_WEBHOOK_SECRET: "whsec_e2eStandInSecret0123456789",
};

function takeOption(args, name, fallback) {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i === -1) return fallback;
  const [flag] = args.splice(i, 1);
  const value = flag.includes("=") ? flag.split("=")[1] : args.splice(i, 1)[0];
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number, got ${value}`);
  return n;
}

const extra = process.argv.slice(2);
const servers = takeOption(extra, "--servers", Number(process.env.E2E_SERVERS_COUNT ?? 2));
const runs = takeOption(extra, "--runs", 1);

let running = [];
let dirs = [];
process.on("SIGINT", () => {
  for (const s of running) s.stop();
  process.exit(130);
});

async function stopAll() {
  for (const s of running) s.stop();
  running = [];
  await new Promise((r) => setTimeout(r, 300));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
}

/** One seeded state (migrations and seed applied once), copied for every other server. */
async function states(count) {
  const first = await freshSeededState("edge-blog-e2e-");
  const out = [first];
  for (let i = 1; i < count; i++) {
    const copy = `${first}-copy${i}`;
    await mkdir(copy, { recursive: true });
    await cp(first, copy, { recursive: true });
    out.push(copy);
  }
  return out;
}

async function startServer(stateDir) {
  // The site knows its own address, as a deployment does (SITE_URL): work done outside a request (the queues:
  // a fediverse reply acted on by the inbox queue, a mail's links) has no request URL to learn it from.
  // Browsed as localhost, the name every spec uses (WebAuthn refuses an IP address as its relying party),
  // so the site's links, its cookies and the browser agree on one host.
  const port = await freePort();
  const siteUrl = `http://localhost:${port}`;
  const stripe = await startStripeStandIn({
    webhookUrl: `${siteUrl}/api/stripe/webhook`,
    secret: E2E_VARS.STRIPE_WEBHOOK_SECRET,
  });
  const vars = Object.entries({ ...E2E_VARS, SITE_URL: siteUrl, STRIPE_API_BASE: stripe.url }).flatMap(([k, v]) => [
    "--var",
    `${k}:${v}`,
  ]);
  // --test-scheduled: specs run the crons themselves at /__scheduled (wrangler dev runs none).
  const server = await startWrangler(["--persist-to", stateDir, "--test-scheduled", ...vars], "/api/health", port);
  return {
    ...server,
    stop: () => {
      server.stop();
      void stripe.stop();
    },
    url: siteUrl,
    stateDir,
    stripeUrl: stripe.url,
  };
}

async function oneRun(run) {
  const started = Date.now();
  let exitCode = 1;
  try {
    dirs = await states(servers);
    running = await Promise.all(dirs.map(startServer));
    for (const s of running) console.log(`e2e: serving ${s.url} from ${s.stateDir}`);
    const reportDir = path.join(root, "reports");
    await mkdir(reportDir, { recursive: true });
    exitCode = await new Promise((resolve) => {
      const pw = spawn("playwright", ["test", `--workers=${servers}`, ...extra], {
        cwd: root,
        stdio: "inherit",
        env: {
          ...process.env,
          E2E_SERVERS: JSON.stringify(
            running.map((s) => ({ url: s.url, stateDir: s.stateDir, stripeUrl: s.stripeUrl })),
          ),
          PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reportDir, runs > 1 ? `playwright-run${run}.json` : "playwright.json"),
        },
      });
      pw.on("exit", (code) => resolve(code ?? 1));
    });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    exitCode = 1;
  } finally {
    // A failed run shows the servers' last words (a queue consumer's error is only logged there).
    if (exitCode !== 0) {
      for (const server of running) {
        const lines = server.logTail(Infinity).split("\n");
        const telling = lines.filter((l) => /error|warn|queue|inbox|fail/i.test(l) && !/analytics\/hit/.test(l));
        console.error(
          `\n${server.url}: wrangler dev's errors, warnings and queue lines:\n${telling.slice(-60).join("\n")}`,
        );
      }
    }
    await stopAll();
  }
  return { exitCode, seconds: Math.round((Date.now() - started) / 1000) };
}

const results = [];
for (let run = 1; run <= runs; run++) {
  const result = await oneRun(run);
  results.push(result);
  if (runs > 1)
    console.log(`e2e: run ${run} of ${runs}: ${result.exitCode === 0 ? "passed" : "FAILED"} in ${result.seconds}s`);
  if (result.exitCode !== 0) break;
}
if (runs > 1) {
  console.log("\n| run | result | seconds |\n|---|---|---|");
  results.forEach((r, i) => console.log(`| ${i + 1} | ${r.exitCode === 0 ? "passed" : "failed"} | ${r.seconds} |`));
}
process.exit(results.every((r) => r.exitCode === 0) && results.length === runs ? 0 : 1);
