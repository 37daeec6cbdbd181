import { drizzle } from "drizzle-orm/d1";
import * as schema from "#drizzle/schema.ts";

/** A Drizzle client for one request: bindings only exist per request, so never cache it. */
export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Db = ReturnType<typeof createDb>;
export { schema };
