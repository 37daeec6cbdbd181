import { defineConfig } from "@playwright/test";

/**
 * The servers are started by scripts/e2e.mjs (one fresh seeded state each, free ports); run specs with
 * `npm run test:e2e`. With several servers (E2E_SERVERS), Playwright runs as many workers and each worker
 * talks only to its own server: this file is loaded again in every worker process, where Playwright has set
 * TEST_PARALLEL_INDEX, so E2E_BASE_URL and E2E_STATE_DIR name that worker's server before any spec reads them.
 */
const servers: { url: string; stateDir: string; stripeUrl?: string }[] = JSON.parse(process.env.E2E_SERVERS ?? "[]");
const mine = servers[Number(process.env.TEST_PARALLEL_INDEX ?? 0)];
if (mine) {
  process.env.E2E_BASE_URL = mine.url;
  process.env.E2E_STATE_DIR = mine.stateDir;
  // The server's stand-in for Stripe (scripts/lib/stripe-stand-in.mjs), for tests/e2e/memberships.spec.ts.
  if (mine.stripeUrl) process.env.E2E_STRIPE_URL = mine.stripeUrl;
}
const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8787";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: Math.max(1, servers.length),
  // No retries, on CI either: a spec that fails once is a defect in the app or in the spec, found and fixed.
  // `npm run test:e2e:repeat -- <spec>` plays given specs several times in a row to prove a fix.
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  // The JSON report (its path from scripts/e2e.mjs) feeds `npm run ci:timing`.
  reporter: [["list"], ["json"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
});
