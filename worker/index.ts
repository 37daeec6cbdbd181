import type { ServerBuild } from "@remix-run/cloudflare";
// The Remix server build exists only after `npm run build` (remix vite:build), so the type
// checker, which runs first, cannot see it.
// @ts-ignore
import * as build from "../build/server";
import { createApp } from "./app";
import type { Env } from "./env";
import { createServices } from "./services";

const app = createApp(build as unknown as ServerBuild);

export default {
  fetch: app.fetch,
  /** The cron trigger's sweeps: expired images leave R2 and D1. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(createServices(env).images.sweepExpired(Date.now()));
  },
} satisfies ExportedHandler<Env>;
