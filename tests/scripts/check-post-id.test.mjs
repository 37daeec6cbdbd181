// `npm run lint` runs scripts/check-post-id.mjs: an id parsed by a pattern of its own, outside
// worker/services/shared/ids.ts, fails it.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../../scripts/check-post-id.mjs", import.meta.url));

function repoWith(files) {
  const dir = mkdtempSync(path.join(tmpdir(), "post-id-"));
  execFileSync("git", ["init", "-q"], { cwd: dir });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const IDS = 'export const ID_SOURCE = "[0-9a-z]{8,40}";\nexport function parseId(v) { return v; }\n';

test("a post id parsed by a pattern of its own fails, naming the file and line", () => {
  const dir = repoWith({
    "worker/services/shared/ids.ts": IDS,
    "worker/services/analytics/classify.ts": "const a = 1;\nconst m = /^\\/blogs\\/([0-9a-z]{8,40})$/.exec(path);\n",
    "app/components/NewsletterForm.tsx": "if (/^[a-z0-9]{20}$/.test(linked)) go();\n",
  });
  const res = spawnSync(process.execPath, [script, dir], { encoding: "utf8" });
  assert.equal(res.status, 1);
  assert.match(res.stderr, /worker\/services\/analytics\/classify\.ts:2/);
  assert.match(res.stderr, /app\/components\/NewsletterForm\.tsx:1/);
});

test("code that calls the one parse, and other patterns (image keys, slugs), pass", () => {
  const dir = repoWith({
    "worker/services/shared/ids.ts": IDS,
    "worker/services/analytics/classify.ts":
      'import { postIdOfPath } from "#worker/services/shared/ids.ts";\nexport const postIdOf = postIdOfPath;\n',
    "worker/services/images/files.ts":
      "const KEY = /^[0-9a-z][0-9a-z_-]{7,80}\\.(jpg|png)$/;\nconst SLUG = /[a-z0-9-]{1,100}/;\n",
  });
  const res = spawnSync(process.execPath, [script, dir], { encoding: "utf8" });
  assert.equal(res.status, 0, res.stderr);
});
