/** The default brand (app/lib/messages.ts re-exports it as BRAND). */
export const DEFAULT_BRAND = "Edge Blog";

/** The brand every page shows: `SITE_NAME` when set, the default otherwise. */
export function siteName(env: { SITE_NAME?: string }): string {
  return env.SITE_NAME?.trim() || DEFAULT_BRAND;
}

/**
 * The brand for code that has no loader data at hand (meta helpers, texts). The root Layout sets it from
 * the root loader's `siteName` before anything below it renders, on the server and in the browser alike.
 * SITE_NAME is one value per deployment, so a module-level copy is the same for every request.
 */
let current = DEFAULT_BRAND;
export function setBrand(name: string | null | undefined) {
  if (name) current = name;
}
export function brand(): string {
  return current;
}
