// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- ambient types of Remix and Vite, as their templates declare them
/// <reference types="@remix-run/cloudflare" />
/// <reference types="vite/client" />

declare module "virtual:remix/server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  export const routes: ServerBuild["routes"];
  const build: ServerBuild;
  export default build;
}

// The reading pages' islands and the slider module's URL (vite.config.ts, docs/decisions/059): server only.
declare module "virtual:reading-islands" {
  const islands: { script: string; sliderModule: string };
  export default islands;
}

// turndown's own DOM (worker/services/import/html.ts): it ships no types; only this much is used.
declare module "@mixmark-io/domino" {
  const domino: { createDocument(html?: string): Document };
  export default domino;
}

// wrangler (and the workers test pool) import a .wasm file as a compiled module: Workers may not compile wasm from bytes.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
