#!/usr/bin/env node
// `npm start`: build, migrate the local D1, seed it when empty, then serve the production build
// through wrangler dev on http://localhost:8787 (or $PORT).
import { existsSync, copyFileSync } from "node:fs";
import path from "node:path";
import { emulateCrons, migrateLocal, root, run } from "./lib/local.mjs";

const port = process.env.PORT ?? "8787";
const devVars = path.join(root, ".dev.vars");
if (!existsSync(devVars)) {
  // A newcomer gets working local secrets at once; real deployments use `wrangler secret put`.
  copyFileSync(path.join(root, ".dev.vars.example"), devVars);
  console.log("Created .dev.vars from .dev.vars.example (local development values).");
}

await run("npm", ["run", "build"]);
await migrateLocal();
await run("node", ["scripts/seed.mjs", "--if-empty"]);
// wrangler dev runs no crons of its own: scheduled posts are published by this minute tick.
emulateCrons(`http://127.0.0.1:${port}`);
await run("wrangler", ["dev", "--port", port, "--ip", "127.0.0.1", "--test-scheduled"]);
