import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Files that run under a SITE_NAME other than the default, so a brand read from anywhere else shows. */
const BRAND_TESTS = ["tests/pages/site-name.test.ts"];

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
        wrangler: { configPath: "./wrangler.toml" },
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
    projects: [
      workersProject("workers", { include: ["tests/{api,pages,services}/**/*.test.ts"], exclude: BRAND_TESTS }),
      // The default brand would hide a page that ignores SITE_NAME: these files run with another one.
      workersProject("brand", { include: BRAND_TESTS }, { SITE_NAME: "Night Owl" }),
    ],
  },
});
