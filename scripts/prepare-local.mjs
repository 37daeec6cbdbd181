#!/usr/bin/env node
// Before `npm run dev`: local secrets, migrations and demo content, exactly as `npm start` does.
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import { migrateLocal, root, run } from "./lib/local.mjs";

if (!existsSync(path.join(root, ".dev.vars")))
  copyFileSync(path.join(root, ".dev.vars.example"), path.join(root, ".dev.vars"));
await migrateLocal();
await run("node", ["scripts/seed.mjs", "--if-empty"]);
