import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { experimental_readRawConfig } from "wrangler";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Files that run under a SITE_NAME other than the default, so a brand read from anywhere else shows. */
const BRAND_TESTS = ["tests/pages/site-name.test.ts"];

/**
 * wrangler.toml as the pool should see it, written to a folder of its own. wrangler loads a `.dev.vars`
 * (or `.env`) found beside the config it is given, and `npm start` writes one at the root for the
 * developer: tests must not run on those values. Paths are made absolute so the copy can live elsewhere.
 */
function hermeticWranglerConfig(): string {
  const { rawConfig } = experimental_readRawConfig({ config: root("./wrangler.toml") });
  const abs = (p: string | undefined) => (p ? root(`./${p}`) : p);
  const config = {
    ...rawConfig,
    main: abs(rawConfig.main),
    assets: rawConfig.assets && { ...rawConfig.assets, directory: abs(rawConfig.assets.directory) },
    d1_databases: rawConfig.d1_databases?.map((d: { migrations_dir?: string }) => ({
      ...d,
      migrations_dir: abs(d.migrations_dir),
    })),
  };
  const dir = root("./.wrangler/test-config");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "wrangler.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** One workers pool over the real Worker entry (and the Remix build that `npm test` makes first). */
function workersProject(
  name: string,
  files: { include: string[]; exclude?: string[] },
  bindings: Record<string, string> = {},
): TestProjectInlineConfiguration {
  return {
    plugins: [
      cloudflareTest(async () => ({
        main: "./worker/index.ts",
        wrangler: { configPath: hermeticWranglerConfig() },
        miniflare: {
          bindings: {
            // The very migrations wrangler applies, applied again by tests/support/setup.ts.
            TEST_MIGRATIONS: await readD1Migrations(root("./migrations")),
            SESSION_SECRET: "test-session-secret-0123456789abcdef0123456789",
            ADMIN_EMAILS: "admin@example.com",
            OWNER_NAME: "Test Owner",
            SITE_NAME: "Edge Blog",
            // The configured origin (production sets it): links never follow the Host a request came through.
            SITE_URL: "https://blog.test",
            ...bindings,
          },
        },
      })),
    ],
    test: {
      name,
      include: files.include,
      exclude: files.exclude ?? [],
      setupFiles: ["./tests/support/setup.ts"],
      // One runtime per runner serves its files in turn (a new one per file costs ~10 s of loading the Worker);
      // tests/support/setup.ts gives each file a fresh site.
      isolate: false,
      // Remix's server packages are CommonJS; the optimizer pre-bundles them into ESM for workerd.
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "cookie", "set-cookie-parser"],
          },
        },
      },
    },
  };
}

export default defineConfig({
  test: {
    // The JSON report feeds `npm run ci:timing` (each file's time); the request log of a passing test is noise.
    reporters: [process.env.CI ? "dot" : "default", ["json", { outputFile: "reports/vitest.json" }]],
    silent: "passed-only",
    projects: [
      workersProject("workers", { include: ["tests/{api,pages,services}/**/*.test.ts"], exclude: BRAND_TESTS }),
      // The default brand would hide a page that ignores SITE_NAME: these files run with another one.
      workersProject("brand", { include: BRAND_TESTS }, { SITE_NAME: "Night Owl" }),
    ],
  },
});
