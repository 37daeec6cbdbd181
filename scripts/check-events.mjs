#!/usr/bin/env node
// Every domain event is said and heard (docs/decisions/057-one-kernel-and-emitting-writes.md). Fails when an
// event named in worker/events/index.ts (`interface DomainEvents`) has no emitter (an `.emit("name"` in a
// file of worker/ other than the hub and the composition root) or no subscriber (a `"name":` key in a file
// of worker/services/ that builds `Subscriptions`), or when something emits a name the list does not have.
// Usage: node scripts/check-events.mjs [root]   (the root is this repository by default)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
const hub = path.join(root, "worker", "events", "index.ts");
const compositionRoot = path.join(root, "worker", "services", "index.ts");

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}
const rel = (file) => path.relative(root, file);

if (!existsSync(hub)) {
  console.error(`check-events: ${rel(hub)} is missing`);
  process.exit(1);
}

// The names, from the one list.
const source = ts.createSourceFile(hub, readFileSync(hub, "utf8"), ts.ScriptTarget.Latest, true);
const list = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === "DomainEvents");
if (!list) {
  console.error(`check-events: ${rel(hub)} declares no interface DomainEvents`);
  process.exit(1);
}
const names = list.members
  .filter((m) => ts.isPropertySignature(m) && m.name && (ts.isStringLiteral(m.name) || ts.isIdentifier(m.name)))
  .map((m) => m.name.text);

const emitters = new Map(names.map((n) => [n, []]));
const subscribers = new Map(names.map((n) => [n, []]));
const problems = [];
const EMIT = /\.emit\(\s*["']([^"']+)["']/g;

for (const file of files(path.join(root, "worker"))) {
  if (file === hub || file === compositionRoot) continue;
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(EMIT)) {
    if (emitters.has(m[1])) emitters.get(m[1]).push(rel(file));
    else problems.push(`${rel(file)} emits "${m[1]}", which worker/events/index.ts does not name`);
  }
  if (!/\bSubscriptions\b/.test(text) || !file.startsWith(path.join(root, "worker", "services"))) continue;
  for (const name of names) {
    const key = new RegExp(`["']${name.replace(/\./g, "\\.")}["']\\s*:`);
    if (key.test(text)) subscribers.get(name).push(rel(file));
  }
}

for (const name of names) {
  if (!emitters.get(name).length) problems.push(`"${name}" has no emitter: the write that makes it true emits it`);
  if (!subscribers.get(name).length)
    problems.push(`"${name}" has no subscriber: subscribe to it beside the service that acts on it, or remove it`);
}
if (problems.length) {
  console.error(`check-events:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
for (const name of names)
  console.log(`  ${name}: emitted by ${emitters.get(name).join(", ")}; heard by ${subscribers.get(name).join(", ")}`);
console.log(`check-events: each of ${names.length} events has an emitter and a subscriber`);
