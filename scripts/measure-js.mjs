#!/usr/bin/env node
// JavaScript each page ships, gzipped: the client entry + root + the route module and their static
// imports, from the Vite manifest of `npm run build`. Lazy chunks (dynamic imports such as
// SweetAlert2) load only on interaction and are listed apart.
//   npm run build && node scripts/measure-js.mjs
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./lib/local.mjs";

const dir = path.join(root, "build", "client");
const manifest = JSON.parse(readFileSync(path.join(dir, ".vite", "manifest.json"), "utf8"));
const gz = new Map();
const gzipOf = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length);
  return gz.get(file);
};
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return seen;
  seen.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && /entry\.client/.test(k));
const shared = new Set([...closure(entryKey), ...closure("app/root.tsx")]);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const rows = [];
for (const key of Object.keys(manifest).filter((k) => k.startsWith("app/routes/")).sort()) {
  const files = new Set([...shared, ...closure(key)]);
  const total = [...files].reduce((sum, k) => sum + gzipOf(manifest[k].file), 0);
  const lazy = new Set([...files].flatMap((k) => manifest[k].dynamicImports ?? []).flatMap((d) => [...closure(d)]));
  const lazyTotal = [...lazy].filter((k) => !files.has(k)).reduce((sum, k) => sum + gzipOf(manifest[k].file), 0);
  rows.push({ route: key.replace("app/routes/", "").replace(/\?.*$/, ""), js: total, lazy: lazyTotal });
}
console.log("| route module | JS on load (gzip) | loaded on demand (gzip) |");
console.log("|---|---|---|");
for (const r of rows) console.log(`| ${r.route} | ${kb(r.js)} | ${r.lazy ? kb(r.lazy) : "-"} |`);
