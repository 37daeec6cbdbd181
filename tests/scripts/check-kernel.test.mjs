// `npm run lint` runs scripts/check-kernel.mjs: the composition root emits nothing, and every service factory
// takes the kernel and at most one object of services, never a callback (docs/decisions/057).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { treeWith } from "./tree.mjs";

const script = fileURLToPath(new URL("../../scripts/check-kernel.mjs", import.meta.url));

const run = (dir) => spawnSync(process.execPath, [script, dir], { encoding: "utf8" });

const ROOT = `import { createLikeService } from "#worker/services/likes.ts";
export function createServices(env: Env, ctx?: ExecutionContext, origin: string | null = null) {
  const k = createKernel(env, ctx, origin);
  k.events.subscribe(notificationSubscriptions(notifications));
  return { likes: createLikeService(k) };
}
`;
const GOOD_SERVICE = `export function createLikeService(k: Kernel, deps: { mailer: Mailer; images?: Pick<ImageService, "upload"> }) {
  return { async toggle() { await k.events.emit("post.liked", { blogId: "b" }); } };
}
`;

test("a composition root that emits fails, naming the line", () => {
  const root = ROOT.replace(
    "  return {",
    '  const onLike = (blogId: string) => k.events.emit("post.liked", { blogId });\n  return {',
  );
  const res = run(treeWith({ "worker/services/index.ts": root, "worker/services/likes.ts": GOOD_SERVICE }));
  assert.equal(res.status, 1);
  assert.match(res.stderr, /worker\/services\/index\.ts:5: the composition root emits/);
});

test("a factory that takes a positional callback, or a callback in its services, fails", () => {
  const res = run(
    treeWith({
      "worker/services/index.ts": ROOT,
      "worker/services/likes.ts":
        "export function createLikeService(k: Kernel, onLike: (blogId: string) => Promise<void> = async () => {}) {}\n",
      "worker/services/follows.ts":
        "export function createFollowService(k: Kernel, deps: { rateLimit: RateLimitService; onFollow?: (id: string) => Promise<void> }) {}\n",
      "worker/services/reviews.ts":
        'import type { ReleaseImages } from "#worker/services/images/cleanup.ts";\nexport function createReviewService(k: Kernel, release: ReleaseImages) {}\n',
      "worker/services/images/cleanup.ts": "export type ReleaseImages = (urls: string[]) => Promise<void>;\n",
    }),
  );
  assert.equal(res.status, 1);
  assert.match(res.stderr, /createLikeService takes a callback \(onLike\)/);
  assert.match(res.stderr, /createFollowService takes a callback \(deps\.onFollow\)/);
  assert.match(res.stderr, /createReviewService takes a callback \(release\)/);
});

test("a factory of more than two parameters fails", () => {
  const res = run(
    treeWith({
      "worker/services/index.ts": ROOT,
      "worker/services/likes.ts":
        "export function createLikeService(db: Db, purge: Purge, rateLimit: RateLimitService) {}\n",
    }),
  );
  assert.equal(res.status, 1);
  assert.match(res.stderr, /createLikeService takes 3 parameters/);
});

test("the kernel and one object of services, a write that emits, a root that subscribes: passes", () => {
  const res = run(treeWith({ "worker/services/index.ts": ROOT, "worker/services/likes.ts": GOOD_SERVICE }));
  assert.equal(res.status, 0, res.stderr);
});

test("this repository passes", () => {
  const res = spawnSync(process.execPath, [script], { encoding: "utf8" });
  assert.equal(res.status, 0, res.stderr);
});
