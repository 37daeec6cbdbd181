import { defineConfig } from "@playwright/test";

// The server is started by scripts/e2e.mjs (fresh seeded state, free port); run specs with `npm run test:e2e`.
const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8787";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  // On CI's busy 2-core machine a timing-sensitive spec may get one more try; it is then reported as
  // "flaky" in the output, never silently green. Locally there is no retry.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
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
