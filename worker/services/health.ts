import { sql } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { Unavailable } from "#worker/services/shared/errors.ts";
import { logError } from "#worker/log.ts";

export function createHealthService(db: Db) {
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
