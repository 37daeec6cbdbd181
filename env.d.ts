// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- ambient types of Remix and Vite, as their templates declare them
/// <reference types="@remix-run/cloudflare" />
/// <reference types="vite/client" />

declare module "virtual:remix/server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  export const routes: ServerBuild["routes"];
  const build: ServerBuild;
  export default build;
}
