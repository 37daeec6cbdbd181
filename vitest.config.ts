import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      // The real Worker entry, over the Remix build that `npm test` makes first.
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
        },
      },
    })),
  ],
  test: {
    include: ["tests/{api,pages,services}/**/*.test.ts"],
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
});
