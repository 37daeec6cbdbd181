// Dev entry for `npm run dev`: the production Hono root over Vite's live Remix build.
import * as build from "virtual:remix/server-build";
import type { ServerBuild } from "@remix-run/cloudflare";
import { createApp } from "#worker/app.ts";
import type { Env } from "#worker/env.ts";
import { serve } from "#worker/serve.ts";

const app = createApp(build as unknown as ServerBuild, "development");

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => serve(app, request, env, ctx),
};
