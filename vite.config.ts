import devServer, { defaultOptions } from "@hono/vite-dev-server";
import cloudflareAdapter from "@hono/vite-dev-server/cloudflare";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { readFile } from "node:fs/promises";
import { defineConfig, type Plugin } from "vite";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

const root = fileURLToPath(new URL(".", import.meta.url));
const workerDir = path.join(root, "worker/");
const drizzleDir = path.join(root, "drizzle/");

const ISLANDS = "virtual:reading-islands";
const SLIDER = "app/components/testimonials-swiper.ts";

/**
 * `virtual:reading-islands` (docs/decisions/059), imported by app/entry.server.tsx only: the reading pages'
 * islands (app/islands/reading.ts) bundled and minified by esbuild into one inline script, and the URL of
 * the slider's module, the chunk the client build emitted for testimonials-swiper.ts (read from Vite's
 * manifest, which the client build writes before the server build runs; the source file itself in dev).
 */
function readingIslands(command: "build" | "serve"): Plugin {
  return {
    name: "reading-islands",
    resolveId: (id) => (id === ISLANDS ? `\0${ISLANDS}` : undefined),
    async load(id) {
      if (id !== `\0${ISLANDS}`) return undefined;
      const entry = path.join(root, "app/islands/reading.ts");
      const out = await esbuild({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: "iife",
        target: "es2020",
        write: false,
        metafile: true,
        alias: { "#app": path.join(root, "app"), "#worker": path.join(root, "worker") },
      });
      for (const file of out.metafile ? Object.keys(out.metafile.inputs) : []) this.addWatchFile(file);
      this.addWatchFile(entry);
      let sliderModule = `/${SLIDER}`;
      if (command === "build") {
        const manifest = JSON.parse(
          await readFile(path.join(root, "build/client/.vite/manifest.json"), "utf8"),
        ) as Record<string, { file: string }>;
        const chunk = manifest[SLIDER];
        if (!chunk) throw new Error(`${SLIDER} is not in the client build's manifest`);
        sliderModule = `/${chunk.file}`;
      }
      const script = out.outputFiles[0]!.text.trim();
      return `export default ${JSON.stringify({ script, sliderModule })};`;
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    readingIslands(command),
    // Dev only: run the same Hono root as production (so /api, /images and pages all answer),
    // with D1 and R2 from wrangler's local state. Vite's own files are left to Vite.
    devServer({
      entry: "worker/dev.ts",
      adapter: cloudflareAdapter,
      exclude: [...defaultOptions.exclude, /^\/app\//, /^\/@.+/, /^\/node_modules\//, /\?(import|url|raw|inline)/],
      injectClientScript: false,
    }),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
  ssr: {
    // One self-contained server bundle: wrangler and the workers test pool load it as it is.
    // (In dev, Vite runs the server code in Node, where dependencies load as they are.)
    noExternal: command === "build" ? true : undefined,
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
  resolve: {
    mainFields: ["browser", "module", "main"],
  },
  build: {
    minify: true,
    // One module graph: the server build leaves the worker's own modules (services, errors, zod
    // schemas) as imports, so wrangler bundles them once, shared by the Hono root and Remix.
    rollupOptions: isSsrBuild
      ? {
          external: (id: string) => id.startsWith(workerDir) || id.startsWith(drizzleDir),
          makeAbsoluteExternalsRelative: false,
          output: {
            paths: (id: string) => (id.startsWith("/") ? `../../${path.relative(root, id)}` : id),
            // Chunks (a lazily imported module shares code with the rest) sit beside index.js, so the
            // relative paths above hold for every file of the server build.
            chunkFileNames: "[name]-[hash].js",
          },
        }
      : {
          output: {
            // Vite's dynamic-import helper stays in the chunk every page already loads (the dialogs'),
            // instead of a chunk of its own once a second lazy import (Swiper, decision 018) shares it.
            manualChunks: (id: string) =>
              id.includes("vite/preload-helper") || id === path.join(root, "app/lib/dialogs.ts")
                ? "dialogs"
                : undefined,
          },
        },
  },
}));
