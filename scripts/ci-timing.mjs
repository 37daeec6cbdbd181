#!/usr/bin/env node
// `npm run ci:timing`: what a CI run spent its time on, from the reports it left under reports/:
// each step's wall time (reports/steps.tsv, written by .ci/run), the 20 slowest workers-pool files
// (Vitest's JSON report) and the 20 slowest Playwright spec files (Playwright's JSON report), and the
// number of tests each suite ran. Prints Markdown tables (the README's "CI time" section is made from them).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const reports = path.join(root, "reports");
const rel = (file) => path.relative(root, file);
const table = (head, rows) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join(
    "\n",
  );

export function steps(text) {
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"))
    .map(([name, seconds]) => ({ name, seconds: Number(seconds) }));
}

/** Vitest's JSON report: each file's wall time (first start to last end) and its test count. */
export function vitestFiles(report) {
  return report.testResults.map((f) => ({
    file: rel(f.name),
    seconds: (f.endTime - f.startTime) / 1000,
    tests: f.assertionResults.length,
    failed: f.assertionResults.filter((a) => a.status === "failed").length,
  }));
}

/** Playwright's JSON report: each spec file's summed test time and its test count. */
export function playwrightFiles(report) {
  const out = new Map();
  const walk = (suite, file) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const entry = out.get(here) ?? { file: `tests/e2e/${here}`, seconds: 0, tests: 0, failed: 0 };
        entry.tests++;
        for (const r of t.results ?? []) entry.seconds += (r.duration ?? 0) / 1000;
        if (t.status === "unexpected" || t.status === "flaky") entry.failed++;
        out.set(here, entry);
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  return [...out.values()];
}

function slowest(files, n = 20) {
  return [...files]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, n)
    .map((f) => [f.file, f.seconds.toFixed(1), String(f.tests)]);
}

function main() {
  const out = [];
  const stepsFile = path.join(reports, "steps.tsv");
  if (existsSync(stepsFile)) {
    const list = steps(readFileSync(stepsFile, "utf8"));
    const total = list.reduce((s, x) => s + x.seconds, 0);
    out.push(
      "### CI steps\n",
      table(["step", "seconds"], [...list.map((s) => [s.name, String(s.seconds)]), ["**total**", `**${total}**`]]),
    );
  }
  const vitestFile = path.join(reports, "vitest.json");
  if (existsSync(vitestFile)) {
    const report = JSON.parse(readFileSync(vitestFile, "utf8"));
    const files = vitestFiles(report);
    out.push(
      `\n### Workers pool: ${report.numTotalTests} tests in ${files.length} files (${report.numFailedTests} failed)\n`,
      table(["slowest files", "seconds", "tests"], slowest(files)),
    );
  }
  const pwFiles = existsSync(reports) ? readdirSync(reports).filter((f) => /^playwright.*\.json$/.test(f)) : [];
  for (const name of pwFiles.sort()) {
    const report = JSON.parse(readFileSync(path.join(reports, name), "utf8"));
    const files = playwrightFiles(report);
    const s = report.stats ?? {};
    out.push(
      `\n### Playwright (${name}): ${files.reduce((n, f) => n + f.tests, 0)} tests, ${s.expected ?? "?"} passed, ` +
        `${s.unexpected ?? "?"} failed, ${s.flaky ?? 0} flaky, ${Math.round((s.duration ?? 0) / 1000)} s wall\n`,
      table(["slowest specs", "seconds (summed)", "tests"], slowest(files)),
    );
  }
  if (!out.length) out.push("No reports yet: run `bash .ci/run` (or `npm test` / `npm run test:e2e`) first.");
  console.log(out.join("\n"));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
