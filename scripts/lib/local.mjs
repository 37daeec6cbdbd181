// Helpers for the local-only scripts (start, seed, e2e). They never reach a remote database:
// every binding comes from wrangler's getPlatformProxy with remote bindings switched off.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const defaultStateDir = path.join(root, ".wrangler", "state");

/** How the measuring scripts launch Debian's Chromium (the flags this machine needs). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** The Lighthouse scripts' wrangler vars: a fixed session secret, so no `.dev.vars` is read for it. */
export const LIGHTHOUSE_VARS = ["--var", "SESSION_SECRET:lighthouse-session-secret-0123456789abcdef01234567"];

/** Runs `fn(env)` with the local D1 and R2 kept under `stateDir` (wrangler's --persist-to layout). */
export async function withLocalBindings(stateDir, fn) {
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy({
    configPath: path.join(root, "wrangler.toml"),
    // getPlatformProxy takes the versioned folder itself; wrangler's --persist-to appends "v3".
    persist: { path: path.join(stateDir, "v3") },
    remoteBindings: false,
  });
  try {
    return await fn(proxy.env);
  } finally {
    await proxy.dispose();
  }
}

/** Imports one of the Worker's TypeScript modules (bundled on the fly), so scripts reuse its code. */
export async function importWorkerModule(relativePath) {
  const result = await build({
    entryPoints: [path.join(root, relativePath)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}

/** Runs a command from node_modules/.bin (or the PATH) and resolves when it exits 0. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", ...options });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${signal ?? code}`)),
    );
  });
}

/** Applies the D1 migrations to the local database kept under `stateDir`. */
export function migrateLocal(stateDir = defaultStateDir) {
  return run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    env: { ...process.env, CI: "true" },
  });
}

/** A TCP port nobody listens on right now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function waitForHealth(url, server, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error("wrangler dev exited before it was ready");
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000}s`);
}

/** A fresh local state folder with the migrations applied and the demo content seeded. */
export async function freshSeededState(prefix) {
  const stateDir = await mkdtemp(path.join(tmpdir(), prefix));
  await migrateLocal(stateDir);
  await run("node", ["scripts/seed.mjs", "--persist-to", stateDir]);
  return stateDir;
}

/**
 * Starts `wrangler dev` on a free port and resolves once `healthPath` answers 200. `args` adds
 * wrangler options (a config, --persist-to, --var); `chosenPort` a port picked beforehand (an instance
 * that must know its own URL). Returns the base URL and a stop() that ends it.
 *
 * Hermetic: it never reads the developer's .dev.vars (nor .env). wrangler reads .dev.vars only when no
 * --env-file is named, so an empty one is named; the values a run relies on come as --var.
 */
export async function startWrangler(args, healthPath = "/api/health", chosenPort = null) {
  const port = chosenPort ?? (await freePort());
  const noEnv = path.join(await mkdtemp(path.join(tmpdir(), "edge-blog-env-")), "none.env");
  await writeFile(noEnv, "");
  // Its own inspector port too: left to wrangler, two instances starting together both take 9229
  // and one dies with "Address already in use" (seen in CI on the two-instance federation run).
  let inspectorPort = await freePort();
  while (inspectorPort === port) inspectorPort = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = spawn(
    "wrangler",
    [
      "dev",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--ip",
      "127.0.0.1",
      "--show-interactive-dev-session=false",
      "--env-file",
      noEnv,
      ...args,
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true, env: { ...process.env, CI: "true" } },
  );
  const log = [];
  server.stdout.on("data", (d) => log.push(d));
  server.stderr.on("data", (d) => log.push(d));
  const stop = () => {
    if (server.exitCode === null) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  };
  try {
    await waitForHealth(`${baseURL}${healthPath}`, server);
  } catch (err) {
    process.stderr.write(Buffer.concat(log));
    stop();
    throw err;
  }
  // pid: the leader of wrangler's process group (workerd runs in it), for memory samples.
  // logTail: the server's last words, for a script to show when something stalls.
  const logTail = (chars = 4000) => Buffer.concat(log).toString().slice(-chars);
  return { baseURL, stop, pid: server.pid, logTail };
}

/**
 * wrangler dev runs no cron triggers. Started with `--test-scheduled`, it takes them at `/__scheduled`;
 * this plays wrangler.toml's two crons there: the minute one (scheduled posts) and the hourly sweep.
 */
export function emulateCrons(baseURL) {
  const timer = setInterval(async () => {
    const crons = ["* * * * *", ...(new Date().getUTCMinutes() === 17 ? ["17 * * * *"] : [])];
    for (const cron of crons) {
      await fetch(`${baseURL}/__scheduled?cron=${encodeURIComponent(cron)}`).catch(() => undefined);
    }
  }, 60_000);
  timer.unref();
}
