#!/usr/bin/env node
// Fails when a post id (or any id of ours) is parsed anywhere but worker/services/shared/ids.ts: seven
// patterns once did it in seven places (issue 44). An id's shape is a character class of lower-case
// letters and digits with a length ({8,40}); code elsewhere calls parseId, isIdShaped or postIdOfPath.
// Usage: node scripts/check-post-id.mjs [root]   (the root is this repository by default)
import path from "node:path";
import { fileURLToPath } from "node:url";
import { repoFiles } from "./lib/repo-files.mjs";

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
const HOME = "worker/services/shared/ids.ts";
const CODE = /^(worker|app)\/.*\.(tsx?|mjs|js)$/;
/** `[0-9a-z]{8,40}`, `[a-z0-9]{20}`, or the id's length range in any other spelling. */
const ID_SHAPE = /\[(?:0-9a-z|a-z0-9)\]\{\d+(?:,\d*)?\}|\{8,40\}/;

const files = repoFiles(root, (f) => CODE.test(f) && f !== HOME);

const found = [];
for (const { file, text } of files) {
  text.split("\n").forEach((line, i) => {
    if (ID_SHAPE.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
  });
}
if (found.length) {
  console.error(
    `An id is parsed outside ${HOME} (use parseId, isIdShaped or postIdOfPath from there):\n` +
      found.map((f) => `  ${f}`).join("\n"),
  );
  process.exit(1);
}
console.log(`check-post-id: ids are parsed only in ${HOME} (${files.length} files checked)`);
