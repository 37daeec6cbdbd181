import type { ServerBuild } from "@remix-run/cloudflare";
// The Remix server build exists only after `npm run build` (remix vite:build), so the type
// checker, which runs first, cannot see it.
// @ts-ignore
import * as build from "../build/server";
import { createApp } from "./app";
import type { Env } from "./env";

const app = createApp(build as unknown as ServerBuild);

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    // Sweeps (expired images, stale sessions) are registered here as they are built.
    const { createServices } = await import("./services");
    const services = createServices(env);
    ctx.waitUntil(services.images.sweepExpired(Date.now()));
  },
} satisfies ExportedHandler<Env>;
