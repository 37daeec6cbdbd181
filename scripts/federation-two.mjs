#!/usr/bin/env node
// `npm run e2e:federation`: the fediverse in miniature. Two instances of this site, each a
// `wrangler dev` on its own free port over its own fresh local state, federate over plain http on
// 127.0.0.1 (FEDERATION_ALLOW_PRIVATE=true: the test configuration). A reader on B follows a writer on
// A by actor URL (and A's site actor by handle, through A's WebFinger); the writer publishes on A; the
// post reaches B through A's federation queue; B's reader replies; the reply becomes a comment on A and
// A's writer is notified. Every wait is bounded; any failure exits non-zero. Needs `npm run build`.
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, migrateLocal, root, startWrangler } from "./lib/local.mjs";

const WAIT_MS = 45_000;
const PASSWORD = "Fediverse-in-miniature-42";
const started = Date.now();
const servers = [];
const states = [];

function log(text) {
  console.log(`federation-two (${((Date.now() - started) / 1000).toFixed(1)}s): ${text}`);
}

function fail(text) {
  throw new Error(text);
}

/** A JSON call; `token` signs in as that account (Bearer, as REST clients do). */
async function api(base, method, route, { token, body } = {}) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      Accept: "application/json",
      ...(body ? { "Content-Type": "application/json" } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, json, text };
}

async function expectStatus(promise, status, what) {
  const res = await promise;
  if (res.status !== status) fail(`${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
  return res.json;
}

/** Polls `check` (answers a value or null) until it answers, or fails after WAIT_MS. */
async function until(what, check) {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 500));
  }
  fail(`timed out after ${WAIT_MS / 1000}s waiting for ${what}`);
}

/** A fresh state with the migrations applied once; the second instance starts from a copy of it. */
async function migratedState() {
  const stateDir = await mkdtemp(path.join(tmpdir(), "edge-blog-fed-a-"));
  states.push(stateDir);
  await migrateLocal(stateDir);
  const copy = await mkdtemp(path.join(tmpdir(), "edge-blog-fed-b-"));
  states.push(copy);
  await cp(stateDir, copy, { recursive: true });
  return [stateDir, copy];
}

async function instance(name, stateDir) {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const vars = {
    SESSION_SECRET: `federation-two-${name}-0123456789abcdef0123456789`,
    SITE_URL: baseURL,
    SITE_NAME: `Instance ${name}`,
    FEDERATION_ALLOW_PRIVATE: "true",
    GOOGLE_CLIENT_ID: "",
    GOOGLE_CLIENT_SECRET: "",
  };
  const args = ["--persist-to", stateDir, ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`])];
  const server = await startWrangler(args, "/api/health", port);
  servers.push(server);
  log(`instance ${name} serves ${server.baseURL}`);
  return server.baseURL;
}

async function register(base, name, email) {
  const json = await expectStatus(
    api(base, "POST", "/api/auth/register", { body: { name, email, password: PASSWORD } }),
    201,
    `register ${email}`,
  );
  return { token: json.token, id: json.user._id };
}

/** Every file under `dir` (wrangler dev writes each mail's parts under .wrangler/tmp/email/<session>/). */
async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])),
  );
  return nested.flat();
}

/**
 * Confirms an account's address the way its owner does: the link in the mail wrangler dev wrote, posted
 * back. Only a verified writer's posts reach the fediverse, and only a verified account follows or replies.
 */
async function verifyByMail(base, token) {
  const prefix = `${base}/verify-email?token=`;
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    for (const file of await filesUnder(path.join(root, ".wrangler", "tmp", "email"))) {
      const text = await readFile(file, "utf8").catch(() => "");
      const at = text.indexOf(prefix);
      if (at < 0) continue;
      const link = new URL(
        text
          .slice(at)
          .match(/^\S+/)[0]
          .replace(/[)>\].,]+$/, ""),
      );
      const res = await api(base, "POST", "/api/auth/verify-email", {
        token,
        body: { token: link.searchParams.get("token") },
      });
      if (res.status === 200) return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  fail(`timed out after ${WAIT_MS / 1000}s waiting for the verification mail from ${base}`);
}

let exitCode = 1;
process.on("SIGINT", () => {
  for (const s of servers) s.stop();
  process.exit(130);
});

try {
  const [stateA, stateB] = await migratedState();
  // One after the other: each picks its ports only once the other holds its own.
  const A = await instance("a", stateA);
  const B = await instance("b", stateB);
  const writer = await register(A, "Ada Writer", "ada@a.test");
  const reader = await register(B, "Bo Reader", "bo@b.test");
  await verifyByMail(A, writer.token);
  log("A's writer confirmed their address by the mailed link");
  // Following and replying on the fediverse need a confirmed address too.
  await verifyByMail(B, reader.token);
  log("B's reader confirmed theirs");

  // A's writer has an actor (made on first need); B's reader follows it by actor URL.
  const handle = (await expectStatus(api(A, "GET", "/api/federation/handle", { token: writer.token }), 200, "handle"))
    .handle;
  const writerActor = `${A}/ap/users/${writer.id}`;
  log(`writer ${handle} is ${writerActor}`);
  await expectStatus(
    api(B, "POST", "/api/fediverse/following", { token: reader.token, body: { target: writerActor } }),
    201,
    "follow by actor URL",
  );
  // ... and A's site actor by handle: B reads A's WebFinger.
  const siteHost = new URL(A).host;
  const site = await expectStatus(
    api(B, "POST", "/api/fediverse/following", { token: reader.token, body: { target: `@site@${siteHost}` } }),
    201,
    "follow by handle",
  );
  if (site.id !== `${A}/ap/site`) fail(`the handle @site@${siteHost} resolved to ${site.id}`);
  await until("A's Accept of both follows on B", async () => {
    const list = (await api(B, "GET", "/api/fediverse/following", { token: reader.token })).json ?? [];
    return list.length === 2 && list.every((f) => f.accepted);
  });
  log("B's reader follows A's writer and A's site (accepted)");
  const followers = await api(A, "GET", `/ap/users/${writer.id}/followers?page=1`);
  if (!followers.json?.orderedItems?.includes(`${B}/ap/users/${reader.id}`)) {
    fail(`A's writer's followers do not list B's reader: ${followers.text.slice(0, 300)}`);
  }

  // A's writer publishes; the post reaches B.
  const title = `Hello from instance A ${Date.now()}`;
  const { insertedId: blogId } = await expectStatus(
    api(A, "POST", "/api/blogs", {
      token: writer.token,
      body: {
        title,
        short_description: "A post that crosses servers.",
        blog_details: "The **whole** post travels to the fediverse.",
        category: "Technology",
        date_time: new Date().toISOString(),
        image: "/images/cover-0001.png",
      },
    }),
    201,
    "publish on A",
  );
  const articleId = `${A}/ap/posts/${blogId}`;
  const seen = await until("the post on B", async () => {
    const posts = (await api(B, "GET", "/api/fediverse/posts", { token: reader.token })).json ?? [];
    return posts.find((p) => p.id === articleId) ?? null;
  });
  if (seen.name !== title || !seen.text.includes("The whole post travels")) {
    fail(`the post on B is not the whole post: ${JSON.stringify(seen).slice(0, 300)}`);
  }
  log(`the post ${articleId} appears on B`);

  // B's reader replies; it becomes a comment on A, and A's writer is notified.
  const replyText = `Greetings from instance B ${Date.now()}`;
  await expectStatus(
    api(B, "POST", "/api/fediverse/replies", {
      token: reader.token,
      body: { in_reply_to: articleId, body: replyText },
    }),
    201,
    "reply from B",
  );
  await until("the reply as a comment on A", async () => {
    const comments = (await api(A, "GET", `/api/blogs/${blogId}/comments`)).json ?? [];
    return comments.find((c) => c.body === replyText) ?? null;
  });
  log("the reply is a comment under the post on A");
  const notified = await until("the writer's notification on A", async () => {
    const list = (await api(A, "GET", "/api/notifications", { token: writer.token })).json;
    const items = Array.isArray(list) ? list : (list?.items ?? []);
    return items.find((n) => n.kind === "comment" && n.blog?._id === blogId) ?? null;
  });
  log(`A's writer is notified: "${notified.text}"`);
  log("passed");
  exitCode = 0;
} catch (err) {
  console.error(`federation-two: FAILED: ${err instanceof Error ? err.message : err}`);
  exitCode = 1;
} finally {
  for (const s of servers) s.stop();
  await new Promise((r) => setTimeout(r, 300));
  for (const dir of states) await rm(dir, { recursive: true, force: true });
}
process.exit(exitCode);
