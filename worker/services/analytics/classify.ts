import Bowser from "bowser";

/**
 * How a read is described in the rollups: where it came from (a group, or another site's domain), the
 * reader's country, device class and browser family. Nothing here is specific to one reader.
 */

const SEARCH = [
  /(^|\.)google\.[a-z.]+$/,
  /(^|\.)bing\.com$/,
  /(^|\.)duckduckgo\.com$/,
  /(^|\.)search\.yahoo\.com$/,
  /(^|\.)yandex\.[a-z.]+$/,
  /(^|\.)baidu\.com$/,
  /(^|\.)ecosia\.org$/,
  /(^|\.)search\.brave\.com$/,
  /(^|\.)startpage\.com$/,
  /(^|\.)kagi\.com$/,
  /(^|\.)qwant\.com$/,
];
const SOCIAL = [
  /(^|\.)facebook\.com$/,
  /^l\.facebook\.com$/,
  /^t\.co$/,
  /(^|\.)twitter\.com$/,
  /(^|\.)x\.com$/,
  /(^|\.)linkedin\.com$/,
  /^lnkd\.in$/,
  /(^|\.)reddit\.com$/,
  /^news\.ycombinator\.com$/,
  /(^|\.)instagram\.com$/,
  /(^|\.)pinterest\.[a-z.]+$/,
  /(^|\.)youtube\.com$/,
  /(^|\.)threads\.net$/,
  /^bsky\.app$/,
  /(^|\.)tiktok\.com$/,
  /^lobste\.rs$/,
];
/**
 * Well-known fediverse servers. A referrer from any server the site has met (a follower, a commenter:
 * ap_remote_actors) is recognised too, when the hit is folded.
 */
const FEDIVERSE = [
  /^mastodon\.[a-z.]+$/,
  /^mstdn\.[a-z.]+$/,
  /^fosstodon\.org$/,
  /^hachyderm\.io$/,
  /^infosec\.exchange$/,
  /^mas\.to$/,
  /^techhub\.social$/,
  /^universeodon\.com$/,
  /^pixelfed\.social$/,
  /^lemmy\.world$/,
  /^kbin\.social$/,
  /^social\.vivaldi\.net$/,
];

/** The source groups, as stored and shown; anything else is a domain. */
export const SOURCE_GROUPS = ["direct", "search", "social", "fediverse", "newsletter"] as const;

/**
 * The read's source: `?ref=newsletter` / `?ref=fediverse` (links the site itself sends out) first, then
 * the referrer's host grouped; none, or the site itself, is "direct". `refHost` is the other site's host (also
 * for a group: its named sites are rolled up apart, fold.ts).
 */
export function sourceOf(pageUrl: URL, referrer: string, siteHost: string): { source: string; refHost: string | null } {
  const ref = pageUrl.searchParams.get("ref");
  if (ref === "newsletter" || ref === "fediverse") return { source: ref, refHost: null };
  let host: string;
  try {
    const url = new URL(referrer);
    if (url.protocol !== "https:" && url.protocol !== "http:") return { source: "direct", refHost: null };
    host = url.hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return { source: "direct", refHost: null };
  }
  if (!host || host === siteHost.replace(/^www\./, "")) return { source: "direct", refHost: null };
  // A group keeps the site it grouped (refHost): a writer sees that Hacker News sent readers, not only "social".
  const named = host.slice(0, 253);
  if (SEARCH.some((r) => r.test(host))) return { source: "search", refHost: named };
  if (SOCIAL.some((r) => r.test(host))) return { source: "social", refHost: named };
  if (FEDIVERSE.some((r) => r.test(host))) return { source: "fediverse", refHost: named };
  return { source: named, refHost: named };
}

/** Device class and browser family of a user agent (bowser), as coarse as a chart needs. */
export function deviceAndBrowserOf(userAgent: string): { device: string; browser: string } {
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type;
  const device = type === "mobile" || type === "tablet" ? type : "desktop";
  return { device, browser: (parsed.browser.name ?? "Other").slice(0, 40) || "Other" };
}

/**
 * The reader's country: Cloudflare's CF-IPCountry header first (set in production; tests and local runs
 * send it, because wrangler dev's request.cf is a placeholder), then request.cf.country. "XX" (unknown)
 * and "T1" (Tor) are counted as unknown.
 */
export function countryOf(request: Request): string {
  const header = request.headers.get("CF-IPCountry")?.trim().toUpperCase();
  const cf = (request as { cf?: { country?: unknown } }).cf?.country;
  const code = header || (typeof cf === "string" ? cf.toUpperCase() : "");
  return /^[A-Z]{2}$/.test(code) && code !== "XX" && code !== "T1" ? code : "unknown";
}

/** The post a path shows (/blogs/{id} or /blogs/{id}/{slug}), if it is one: the one id parse's. */
export { postIdOfPath as postIdOf } from "#worker/services/shared/ids.ts";

/** Pages that are a person's own (signing in, the dashboard, settings): never counted as reads. */
const PRIVATE =
  /^\/(dashboard|settings|editProfile|Profile|notifications|saved|following|login|logout|register|forgot-password|reset-password|verify-email|confirm|confirm-email|newsletter|api|auth)(\/|$)/;
export const isCountedPath = (pathname: string) => !PRIVATE.test(pathname);
