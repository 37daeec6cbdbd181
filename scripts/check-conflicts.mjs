#!/usr/bin/env node
// Fails when a tracked text file holds a merge's conflict markers (a `<<<<<<< ` line, a lone `=======` line
// between it and a `>>>>>>> ` line): worker/services/blogs/CONTEXT.md carried one for 33 commits.
// Usage: node scripts/check-conflicts.mjs [root]   (the root is this repository by default)
import path from "node:path";
import { fileURLToPath } from "node:url";
import { repoFiles } from "./lib/repo-files.mjs";

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
const TEXT = /\.(md|tsx?|mjs|js|cjs|json|css|sql|toml|ya?ml|txt|html)$|(^|\/)run$/;

const files = repoFiles(root, (f) => TEXT.test(f));

const found = [];
for (const { file, text } of files) {
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (!line.startsWith("<<<<<<< ")) return;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(">>>>>>> "));
    const middle = lines.findIndex((l, j) => j > i && l === "=======");
    if (end !== -1 && middle !== -1 && middle < end) found.push(`${file}:${i + 1}`);
  });
}
if (found.length) {
  console.error(`Merge conflict markers left in:\n${found.map((f) => `  ${f}`).join("\n")}`);
  process.exit(1);
}
console.log(`check-conflicts: no conflict markers in ${files.length} files`);
