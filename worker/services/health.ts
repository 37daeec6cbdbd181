import { sql } from "drizzle-orm";
import { Unavailable } from "#worker/services/shared/errors.ts";
import { logError } from "#worker/log.ts";
import type { Kernel } from "#worker/services/kernel.ts";

export function createHealthService(k: Kernel) {
  const { db } = k;
  return {
    /** Proves D1 answers a real query; throws Unavailable otherwise. */
    async check(): Promise<{ status: "ok" }> {
      try {
        await db.run(sql`select count(*) from ${sql.identifier("users")}`);
      } catch (cause) {
        logError("health check failed", cause);
        throw new Unavailable("The database is not reachable.", "database-unavailable");
      }
      return { status: "ok" };
    },
  };
}
