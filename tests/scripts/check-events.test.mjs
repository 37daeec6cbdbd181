// `npm run lint` runs scripts/check-events.mjs: every domain event has an emitter and a subscriber.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { treeWith } from "./tree.mjs";

const script = fileURLToPath(new URL("../../scripts/check-events.mjs", import.meta.url));

const run = (dir) => spawnSync(process.execPath, [script, dir], { encoding: "utf8" });

const HUB = `export interface DomainEvents {
  /** Someone liked a post. */
  "post.liked": { blogId: string };
  "member.paid": { userId: string };
}
`;
const EMITTERS = {
  "worker/services/likes.ts": 'export const like = (k: Kernel) => k.events.emit("post.liked", { blogId: "b" });\n',
  "worker/services/members/sync.ts":
    'export const paid = (k: Kernel) => k.events.emit("member.paid", { userId: "u" });\n',
};
const SUBSCRIBERS = {
  "worker/services/notifications/events.ts":
    'import type { Subscriptions } from "#worker/events/index.ts";\nexport const s = (n: N): Subscriptions => ({ "post.liked": (p) => n.liked(p) });\n',
  "worker/services/members/events.ts":
    'import type { Subscriptions } from "#worker/events/index.ts";\nexport const s = (m: M): Subscriptions => ({\n  "member.paid": (p) => m.welcome(p),\n});\n',
};

test("an event nobody subscribes to fails, naming it", () => {
  const res = run(
    treeWith({
      "worker/events/index.ts": HUB,
      ...EMITTERS,
      "worker/services/notifications/events.ts": SUBSCRIBERS["worker/services/notifications/events.ts"],
    }),
  );
  assert.equal(res.status, 1);
  assert.match(res.stderr, /"member\.paid" has no subscriber/);
});

test("an event nobody emits (or only the composition root emits) fails, naming it", () => {
  const res = run(
    treeWith({
      "worker/events/index.ts": HUB,
      ...SUBSCRIBERS,
      "worker/services/members/sync.ts": EMITTERS["worker/services/members/sync.ts"],
      "worker/services/index.ts": 'const onLike = (blogId: string) => events.emit("post.liked", { blogId });\n',
    }),
  );
  assert.equal(res.status, 1);
  assert.match(res.stderr, /"post\.liked" has no emitter/);
});

test("an emit of a name the hub does not list fails", () => {
  const res = run(
    treeWith({
      "worker/events/index.ts": HUB,
      ...SUBSCRIBERS,
      ...EMITTERS,
      "worker/services/follows.ts": 'export const f = (k: Kernel) => k.events.emit("user.followed", {});\n',
    }),
  );
  assert.equal(res.status, 1);
  assert.match(res.stderr, /follows\.ts emits "user\.followed"/);
});

test("every event emitted by a write and heard beside a service: passes", () => {
  const res = run(treeWith({ "worker/events/index.ts": HUB, ...EMITTERS, ...SUBSCRIBERS }));
  assert.equal(res.status, 0, res.stderr);
  assert.match(
    res.stdout,
    /post\.liked: emitted by worker\/services\/likes\.ts; heard by worker\/services\/notifications\/events\.ts/,
  );
});

test("this repository passes", () => {
  const res = spawnSync(process.execPath, [script], { encoding: "utf8" });
  assert.equal(res.status, 0, res.stderr);
});
