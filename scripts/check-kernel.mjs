#!/usr/bin/env node
// Holds the services to one shape (docs/decisions/057-one-kernel-and-emitting-writes.md). Fails when:
// - worker/services/index.ts, the composition root, emits a domain event (`.emit(`): a write emits its own
//   event right after its batch, where the rule that makes it true (a verified writer, a public post) lives;
// - a factory of worker/services (an exported function named create…, outside the composition root) takes more than two parameters (the
//   kernel, and at most one object of the services it calls), or takes a callback: a parameter of function
//   type, one defaulted to a function, or an object parameter with a member of function type (inline, or a
//   type or interface of the same file, or a function type named anywhere in worker/). A service object's
//   methods are not callbacks: pass the service.
// Usage: node scripts/check-kernel.mjs [root]   (the root is this repository by default)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
const servicesDir = path.join(root, "worker", "services");
const compositionRoot = path.join(servicesDir, "index.ts");
const MAX_PARAMETERS = 2;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const problems = [];
const rel = (file) => path.relative(root, file);

// 1. The composition root registers subscribers; it never emits.
if (existsSync(compositionRoot)) {
  readFileSync(compositionRoot, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (/\.emit\s*\(/.test(line) && !/^\s*(\/\/|\*)/.test(line))
        problems.push(`${rel(compositionRoot)}:${i + 1}: the composition root emits an event; emit it from the write`);
    });
}

// 2. Every factory: the kernel and at most one object of services; no callbacks.
function isFunctionType(node, aliases) {
  if (!node) return false;
  if (ts.isParenthesizedTypeNode(node)) return isFunctionType(node.type, aliases);
  if (ts.isFunctionTypeNode(node) || ts.isConstructorTypeNode(node)) return true;
  if (ts.isUnionTypeNode(node)) return node.types.some((t) => isFunctionType(t, aliases));
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
    const alias = aliases.get(node.typeName.text);
    return alias !== undefined && alias !== null && isFunctionType(alias, aliases);
  }
  return false;
}

/** The members of a parameter's object type that are callbacks (inline literal, or a same-file type or interface). */
function callbackMembers(node, aliases, interfaces) {
  if (!node) return [];
  if (ts.isIntersectionTypeNode(node)) return node.types.flatMap((t) => callbackMembers(t, aliases, interfaces));
  let members = null;
  if (ts.isTypeLiteralNode(node)) members = node.members;
  else if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
    const name = node.typeName.text;
    if (interfaces.has(name)) members = interfaces.get(name);
    else if (aliases.get(name) && ts.isTypeLiteralNode(aliases.get(name))) members = aliases.get(name).members;
  }
  if (!members) return [];
  return members
    .filter((m) => ts.isMethodSignature(m) || (ts.isPropertySignature(m) && isFunctionType(m.type, aliases)))
    .map((m) => m.name.getText());
}

// The composition root's own builders (createKernel, createServices) take the Worker's env, ctx and origin.
const factoryFiles = existsSync(servicesDir) ? files(servicesDir).filter((f) => f !== compositionRoot) : [];
const parse = (file) => ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
/** Every function type named anywhere in worker/ (`export type ReleaseImages = (urls) => …`): a callback by name. */
const functionAliases = new Map();
for (const file of existsSync(path.join(root, "worker")) ? files(path.join(root, "worker")) : []) {
  for (const statement of parse(file).statements)
    if (ts.isTypeAliasDeclaration(statement) && !functionAliases.has(statement.name.text))
      functionAliases.set(statement.name.text, statement.type);
}
for (const file of factoryFiles) {
  const source = parse(file);
  const aliases = new Map([...functionAliases].filter(([, type]) => isFunctionType(type, new Map())));
  const interfaces = new Map();
  for (const statement of source.statements) {
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement.members);
  }
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !/^create[A-Z]/.test(statement.name.text)) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const name = statement.name.text;
    const where = `${rel(file)}:${source.getLineAndCharacterOfPosition(statement.getStart()).line + 1}`;
    const params = statement.parameters;
    if (params.length > MAX_PARAMETERS)
      problems.push(`${where}: ${name} takes ${params.length} parameters; take the kernel and one object of services`);
    for (const param of params) {
      const label = param.name.getText();
      const defaultsToFunction =
        param.initializer && (ts.isArrowFunction(param.initializer) || ts.isFunctionExpression(param.initializer));
      if (isFunctionType(param.type, aliases) || defaultsToFunction)
        problems.push(`${where}: ${name} takes a callback (${label}); pass the service that does it`);
      for (const member of callbackMembers(param.type, aliases, interfaces))
        problems.push(`${where}: ${name} takes a callback (${label}.${member}); pass the service that does it`);
    }
  }
}

if (problems.length) {
  console.error(`check-kernel:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(
  "check-kernel: the composition root emits nothing; every factory takes the kernel and at most one object of services, and no callback",
);
