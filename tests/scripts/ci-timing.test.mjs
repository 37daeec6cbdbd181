// `npm run ci:timing` (scripts/ci-timing.mjs) reads the reports a CI run leaves: each step's time, each pool
// file's time from Vitest's JSON report, and each spec's summed time from Playwright's JSON report.
import assert from "node:assert/strict";
import { test } from "node:test";

const { playwrightFiles, steps, vitestFiles } = await import(
  new URL("../../scripts/ci-timing.mjs", import.meta.url).href
);

test("steps are read from the tab-separated file .ci/run writes", () => {
  assert.deepEqual(steps("build\t12\nworkers-pool suite\t301\n"), [
    { name: "build", seconds: 12 },
    { name: "workers-pool suite", seconds: 301 },
  ]);
});

test("a pool file's time is its wall time, with its tests and failures counted", () => {
  const files = vitestFiles({
    testResults: [
      {
        name: `${process.cwd()}/tests/api/health.test.ts`,
        startTime: 1000,
        endTime: 3500,
        assertionResults: [{ status: "passed" }, { status: "failed" }],
      },
    ],
  });
  assert.deepEqual(files, [{ file: "tests/api/health.test.ts", seconds: 2.5, tests: 2, failed: 1 }]);
});

test("a spec's time sums its tests' results across nested describe blocks", () => {
  const files = playwrightFiles({
    suites: [
      {
        file: "reading.spec.ts",
        specs: [{ tests: [{ status: "expected", results: [{ duration: 1500 }] }] }],
        suites: [{ specs: [{ tests: [{ status: "unexpected", results: [{ duration: 500 }] }] }] }],
      },
    ],
  });
  assert.deepEqual(files, [{ file: "tests/e2e/reading.spec.ts", seconds: 2, tests: 2, failed: 1 }]);
});
