// `npm run lint` runs scripts/check-conflicts.mjs: a file with a merge's conflict markers fails it.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../../scripts/check-conflicts.mjs", import.meta.url));

function repoWith(name, text) {
  const dir = mkdtempSync(path.join(tmpdir(), "conflicts-"));
  execFileSync("git", ["init", "-q"], { cwd: dir });
  writeFileSync(path.join(dir, name), text);
  return dir;
}

test("a Markdown file with conflict markers fails, naming the file and line", () => {
  const dir = repoWith("CONTEXT.md", "# Title\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> tags\n");
  const res = spawnSync(process.execPath, [script, dir], { encoding: "utf8" });
  assert.equal(res.status, 1);
  assert.match(res.stderr, /CONTEXT\.md:2/);
});

test("a Markdown rule line or a lone marker-like line is not a conflict", () => {
  const dir = repoWith("notes.md", "Title\n=======\n\n<<<<<<< is how git marks a conflict\n");
  const res = spawnSync(process.execPath, [script, dir], { encoding: "utf8" });
  assert.equal(res.status, 0, res.stderr);
});
