#!/usr/bin/env node
// Fails when the docs, decisions, README, SECURITY.md, wrangler.toml or a comment in the code names a file
// or folder of this repository that does not exist (a moved file leaves its mentions behind otherwise).
// Usage: node scripts/check-paths.mjs
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const TOP = ["worker", "app", "docs", "scripts", "tests", "drizzle", "migrations", "seed", "public", ".ci"];
const MENTION = new RegExp(
  `(?<![\\w./#@-])((?:${TOP.join("|").replace(".", "\\.")})/[\\w@.\\-/\\[\\]$()]*[\\w/])`,
  "g",
);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (["node_modules", "build", ".wrangler", "fixtures", "screenshots", "e2e-artifacts"].includes(e.name)) return [];
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : [full];
  });
}

const sources = [
  ...["README.md", "SECURITY.md", "wrangler.toml", "package.json", "vite.config.ts", "vitest.config.ts"].map((f) =>
    path.join(root, f),
  ),
  ...walk(path.join(root, "docs")).filter((f) => f.endsWith(".md")),
  ...["worker", "app", "scripts", "tests", "drizzle", ".ci"].flatMap((d) =>
    walk(path.join(root, d)).filter((f) => /\.(tsx?|mjs|js|css|md)$|\/run$/.test(f)),
  ),
];

/** Globs, placeholders and generated folders are not claims about a file. */
const ignored = (p) => /[*<>{}]|\$\{|\.\.\.|NNN|\[id\]|example\.ts$/.test(p) || /^(build|test-results)\//.test(p);

/** "docs/decisions/012" names decision 012-*.md; "docs/screenshots/newsletter" the newsletter-*.png shots. */
function existsByPrefix(p) {
  const dir = path.join(root, path.dirname(p));
  if (!existsSync(dir)) return false;
  const base = path.basename(p);
  return readdirSync(dir).some((f) => f.startsWith(`${base}-`) || f.startsWith(`${base}.`));
}

const missing = [];
for (const file of sources) {
  if (!existsSync(file)) continue;
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(MENTION)) {
    let mention = m[1].replace(/[.)\]]+$/, "");
    if (ignored(mention)) continue;
    // "worker/services/import/" and "worker/og/card.ts:42" name the folder and the file.
    mention = mention.replace(/:\d+$/, "");
    const candidates = [mention, mention.replace(/\$$/, ""), mention.replace(/\(.*$/, "")];
    if (candidates.some((c) => existsSync(path.join(root, c)) || existsByPrefix(c))) continue;
    const line = text.slice(0, m.index).split("\n").length;
    missing.push(`${path.relative(root, file)}:${line}: ${mention}`);
  }
}
if (missing.length) {
  console.error(`Paths named that do not exist (${missing.length}):`);
  for (const m of missing) console.error(`  ${m}`);
  process.exit(1);
}
console.log(`Every path named in docs, decisions, comments and wrangler.toml exists (${sources.length} files read).`);
