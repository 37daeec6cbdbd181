import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The repository's files (tracked, and new ones git does not ignore) whose path passes `keep`, with their text:
 * what the lint's file checks (check-conflicts, check-post-id) read. A file listed but deleted in the work tree
 * is skipped.
 */
export function repoFiles(root, keep) {
  const names = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root })
    .toString()
    .split("\0")
    .filter((f) => f && keep(f));
  const files = [];
  for (const file of names) {
    try {
      files.push({ file, text: readFileSync(path.join(root, file), "utf8") });
    } catch {
      // listed but deleted in the work tree
    }
  }
  return files;
}
