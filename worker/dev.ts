// Dev entry for `npm run dev`: the production Hono root over Vite's live Remix build.
import * as build from "virtual:remix/server-build";
import type { ServerBuild } from "@remix-run/cloudflare";
import { createApp } from "./app";

export default createApp(build as unknown as ServerBuild, "development");
