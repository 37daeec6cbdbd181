import { useRouteLoaderData } from "@remix-run/react";

/** The brand when `SITE_NAME` is unset or blank. */
export const DEFAULT_BRAND = "Edge Blog";

/** The brand every page shows: `SITE_NAME` when set, the default otherwise. Loaders and actions call it. */
export function siteName(env: { SITE_NAME?: string }): string {
  return env.SITE_NAME?.trim() || DEFAULT_BRAND;
}

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
