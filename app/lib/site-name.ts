import { useRouteLoaderData } from "@remix-run/react";

/**
 * The brand when no root data is at hand (worker/config.ts's DEFAULT_SITE_NAME; a client-safe copy, since
 * this module ships to the browser). Loaders and actions read the configured name with
 * `configOf(context.env).siteName`.
 */
export const DEFAULT_BRAND = "Edge Blog";

/** What a route match carries: the root's loader data holds `siteName` (app/root.tsx). */
interface Match {
  id: string;
  data?: unknown;
}

const rootSiteName = (data: unknown): string | undefined => {
  const value = (data as { siteName?: unknown } | null | undefined)?.siteName;
  return typeof value === "string" && value ? value : undefined;
};

/**
 * The brand for a meta function, read from the root loader's data in `matches`. Never module state: one
 * isolate serves every request, and an action or meta in a fresh isolate must still say SITE_NAME.
 */
export function brandOf(matches: readonly Match[]): string {
  return rootSiteName(matches.find((m) => m.id === "root")?.data) ?? DEFAULT_BRAND;
}

/** The brand for a component: the root loader's `siteName`. */
export function useBrand(): string {
  return rootSiteName(useRouteLoaderData("root")) ?? DEFAULT_BRAND;
}
