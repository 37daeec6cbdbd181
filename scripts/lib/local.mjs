// Helpers for the local-only scripts (start, seed, e2e). They never reach a remote database:
// every binding comes from wrangler's getPlatformProxy with remote bindings switched off.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const defaultStateDir = path.join(root, ".wrangler", "state");

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
