import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Each test file starts from the schema the migrations describe (applying is idempotent).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
