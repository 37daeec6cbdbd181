import { BRAND } from "./messages";

/** The brand every page shows: `SITE_NAME` when set, the default otherwise. */
export function siteName(env: { SITE_NAME?: string }): string {
  return env.SITE_NAME?.trim() || BRAND;
}
