#!/usr/bin/env node
// JavaScript each page ships, gzipped, read from Remix's own client manifest (the modules it
// preloads for a URL): the entry, every route module on the way from root to the page, and their
// static imports. Lazy chunks (dynamic imports such as SweetAlert2) load only on interaction.
//   npm run build && node scripts/measure-js.mjs
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./lib/local.mjs";

const dir = path.join(root, "build", "client");
const file = readdirSync(path.join(dir, "assets")).find((f) => /^manifest-.*\.js$/.test(f));
if (!file) throw new Error("No Remix client manifest: run `npm run build` first.");
const manifest = JSON.parse(
  readFileSync(path.join(dir, "assets", file), "utf8")
    .replace(/^window\.__remixManifest=/, "")
    .replace(/;\s*$/, ""),
);

const sizes = new Map();
const gz = (url) => {
  if (!sizes.has(url)) sizes.set(url, gzipSync(readFileSync(path.join(dir, url))).length);
  return sizes.get(url);
};
const chain = (id) => {
  const out = [];
  for (let r = manifest.routes[id]; r; r = manifest.routes[r.parentId]) out.unshift(r);
  return out;
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

console.log("| page route | JS on load (gzip) | of which its own modules |");
console.log("|---|---|---|");
const base = new Set([
  manifest.entry.module,
  ...manifest.entry.imports,
  manifest.routes.root.module,
  ...manifest.routes.root.imports,
]);
for (const [id] of Object.entries(manifest.routes).sort(([a], [b]) => a.localeCompare(b))) {
  if (id === "root") continue;
  const files = new Set(base);
  for (const r of chain(id)) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
  const total = [...files].reduce((sum, f) => sum + gz(f), 0);
  const own = [...files].filter((f) => !base.has(f)).reduce((sum, f) => sum + gz(f), 0);
  // Resource routes (feeds, redirects, logout) compile to empty client chunks (~20 bytes gzipped): not pages.
  if (own < 40) continue;
  console.log(`| ${id.replace("routes/", "")} | ${kb(total)} | ${kb(own)} |`);
}
