#!/usr/bin/env node
// Fails when files under worker/ import each other in a circle of more than two files (type-only imports
// included: a circle of types is still a circle a reader has to hold in their head). Prints each circle.
// Usage: node scripts/check-cycles.mjs
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const MAX = 2;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

function resolve(from, spec) {
  let target;
  if (spec.startsWith("#worker/")) target = path.join(root, "worker", spec.slice("#worker/".length));
  else if (spec.startsWith(".")) target = path.resolve(path.dirname(from), spec);
  else return null;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")])
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  return null;
}

const all = files(path.join(root, "worker"));
const graph = new Map();
const IMPORT =
  /(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
for (const file of all) {
  const text = readFileSync(file, "utf8");
  const deps = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const target = resolve(file, m[1] ?? m[2]);
    if (target && target !== file) deps.add(target);
  }
  graph.set(file, [...deps]);
}

// Tarjan's strongly connected components: every circle lies inside one.
let index = 0;
const stack = [];
const meta = new Map();
const components = [];
function strongConnect(v) {
  meta.set(v, { index, low: index, on: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!meta.has(w)) {
      strongConnect(w);
      meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
    } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
  }
  if (meta.get(v).low === meta.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      meta.get(w).on = false;
      component.push(w);
    } while (w !== v);
    components.push(component);
  }
}
for (const v of graph.keys()) if (!meta.has(v)) strongConnect(v);

const circles = components.filter((c) => c.length > MAX);
if (circles.length) {
  for (const c of circles) {
    console.error(`A circle of ${c.length} files in worker/:`);
    for (const f of c.sort()) console.error(`  ${path.relative(root, f)}`);
  }
  console.error("Move what both sides need (types, message shapes) down into a module that imports neither.");
  process.exit(1);
}
console.log(`No import circle of more than ${MAX} files among ${all.length} files in worker/.`);
