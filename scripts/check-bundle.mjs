#!/usr/bin/env node
// `npm run check:bundle` (part of `npm run validate`): bundles the Worker exactly as `wrangler deploy`
// would (--dry-run --outdir) and fails when the bundle newly contains code generation from strings.
// Production Workers refuse `new Function(...)` and `eval(...)` ("Code generation from strings disallowed"),
// while the vitest workers pool allows them, so a library that uses them passes every pool test and then
// answers 500 in production (d3-dsv's csvParse did). It also prints the bundle's size against the plan limits.
// Usage: node scripts/check-bundle.mjs [--outdir DIR] [--file BUNDLE.js]   (--file checks a given bundle)
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root, run } from "./lib/local.mjs";

/**
 * Known occurrences, each unreachable from this app, found by the code around them.
 * - sweetalert2 reads `<swal-function-param>` elements of a `<template>` given as its `template` option and
 *   turns their values into functions. Dialogs run in the browser, and this app never passes `template`;
 *   the server bundle only carries the module because the route modules import it.
 */
export const KNOWN = [
  {
    library: "sweetalert2",
    marker: "swal-function-param",
    reason: "template params of Swal's `template` option, which this app never uses (and only in browsers)",
  },
];

const PATTERN = /new\s+Function\s*\(|(?<![\w$.])eval\s*\(/g;
const WINDOW = 400;

/** Every occurrence of code generation in `code`, with whether a KNOWN entry explains it. */
export function findCodeGeneration(code) {
  const found = [];
  for (const m of code.matchAll(PATTERN)) {
    const around = code.slice(Math.max(0, m.index - WINDOW), m.index + WINDOW);
    const known = KNOWN.find((k) => around.includes(k.marker));
    found.push({ index: m.index, text: m[0], known, excerpt: code.slice(Math.max(0, m.index - 100), m.index + 60) });
  }
  return found;
}

const args = process.argv.slice(2);
const arg = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

let bundle = arg("--file");
let cleanup = null;
if (!bundle) {
  const outdir = arg("--outdir") ?? (await mkdtemp(path.join(tmpdir(), "edge-blog-bundle-")));
  if (!arg("--outdir")) cleanup = outdir;
  await run("wrangler", ["deploy", "--dry-run", "--outdir", outdir, "--log-level", "error"], { cwd: root });
  const js = (await readdir(outdir)).filter((f) => f.endsWith(".js"));
  if (js.length !== 1) throw new Error(`expected one bundle in ${outdir}, found ${js.join(", ") || "none"}`);
  bundle = path.join(outdir, js[0]);
}

const code = await readFile(bundle, "utf8");
const bytes = Buffer.byteLength(code);
const gzip = gzipSync(code, { level: 9 }).byteLength;
const mib = (n) => (n / 1024 / 1024).toFixed(2);
console.log(`Worker bundle: ${mib(bytes)} MiB, ${mib(gzip)} MiB gzip (free plan 3 MiB gzip, paid 10 MiB gzip)`);

const found = findCodeGeneration(code);
for (const f of found.filter((x) => x.known))
  console.log(`known, unreachable: ${f.text} in ${f.known.library}: ${f.known.reason}`);
const unknown = found.filter((f) => !f.known);
if (cleanup) await rm(cleanup, { recursive: true, force: true });
if (gzip > 3 * 1024 * 1024) {
  console.error("The Worker is over the free plan's 3 MiB gzip limit.");
  process.exit(1);
}
if (unknown.length) {
  console.error(`The Worker bundle generates code from strings, which production Workers refuse:`);
  for (const f of unknown) console.error(`  at byte ${f.index}: …${f.excerpt.replace(/\s+/g, " ")}…`);
  console.error(
    "Replace the library (or load it only in the browser); see scripts/check-bundle.mjs for the known list.",
  );
  process.exit(1);
}
console.log("No code generation from strings outside the known list.");
