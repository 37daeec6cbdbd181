import { sessionOf } from "#worker/auth/cookie.ts";
import { wantsActivityJson } from "#worker/services/federation/vocab.ts";
import { SLUG_PATTERN } from "#worker/services/blogs/slug.ts";
import { TAG_PATTERN } from "#worker/services/blogs/tags.ts";
import { ID_SOURCE } from "#worker/services/shared/ids.ts";

/**
 * The one cache policy: which answers anonymous readers share, for how long, and under which tags.
 * Nothing else sets Cache-Control on pages or API answers (images keep their own immutable rule).
 *
 * Shared answers are for requests that carry no session: the Workers Cache in production (and the
 * local layer in ./edge.ts) keeps them `s-maxage`, serves them stale while one refresh runs, and
 * browsers revalidate every time (`max-age=0`), so a purge is seen at once.
 */
export const SHARED_SECONDS = 600;
export const STALE_SECONDS = 86_400;
export const SHARED_CACHE_CONTROL = `public, max-age=0, s-maxage=${SHARED_SECONDS}, stale-while-revalidate=${STALE_SECONDS}`;
export const PRIVATE_CACHE_CONTROL = "private, no-store";
/** Every shared answer varies on these, so a request with a session never matches the anonymous copy. */
export const SHARED_VARY = "Cookie, Authorization";

/**
 * Whether a request may be answered from, and stored in, the shared cache at all: a read that carries
 * no session in any spelling and no flash message. "Signed in" is decided by the same function the
 * session middleware reads its token with (worker/auth/cookie.ts sessionOf), so the two cannot disagree.
 */
export function isAnonymousRead(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  // A page asked for as ActivityStreams (worker/api/federation.ts) is another answer than the page:
  // never served from, nor stored as, the page's shared copy.
  if (wantsActivityJson(request)) return false;
  const { signedIn, flash } = sessionOf(request);
  return !signedIn && !flash;
}

const ID = `(${ID_SOURCE})`;
/** The list calls' paging (worker/api/paging.ts). */
const PAGING = ["page", "limit", "cursor"] as const;

/**
 * Every shared URL: its tags, and the ONE allow-list of the query parameters its page reads. The shared
 * copy is keyed, and the page rendered, with only these (sorted); any other parameter (`?x=N`) is
 * dropped, so it cannot force a miss. A page that starts reading a parameter adds it here.
 */
const ROUTES: { path: RegExp; params: readonly string[]; tags: (m: RegExpMatchArray) => string[] }[] = [
  { path: /^\/$/, params: [], tags: () => ["blogs", "authors", "reviews"] },
  { path: /^\/(about|contact|robots\.txt)$/, params: [], tags: () => [] },
  // The pages of text admins edit: purged by their edit.
  { path: /^\/(privacy|terms)$/, params: [], tags: (m) => [`page:${m[1]}`] },
  { path: /^\/allBlogs$/, params: ["q", "category", "tag", "page", "cursor"], tags: () => ["blogs"] },
  // Every tag, a tag's page and its feed: any blog write may change them (tags live on posts), so
  // `blogs`. Only a tag's canonical path (its slug, percent-encoded) is shared; another spelling is a 301.
  { path: /^\/tags$/, params: ["page"], tags: () => ["blogs"] },
  { path: new RegExp(`^/tags/${TAG_PATTERN}$`), params: ["page"], tags: () => ["blogs"] },
  { path: new RegExp(`^/tags/${TAG_PATTERN}/rss\\.xml$`), params: [], tags: () => ["blogs"] },
  // A post at its readable link /blogs/{id}/{slug}. /blogs/{id} alone, or an older slug, is a
  // 301 to it: never shared (only 200 and 404 are), so a retitle is seen at once.
  {
    path: new RegExp(`^/blogs/${ID}(?:/${SLUG_PATTERN})?$`),
    params: ["comments", "replies", "thread"],
    tags: (m) => ["blogs", `blog:${m[1]}`],
  },
  // A writer's page: their profile (purged by profile edits) and their posts (purged by any blog write).
  { path: new RegExp(`^/writers/${ID}$`), params: ["page", "cursor"], tags: (m) => ["blogs", `writer:${m[1]}`] },
  // The post's share card: purged with the post (its title, category or writer changed).
  { path: new RegExp(`^/blogs/${ID}/og\\.png$`), params: [], tags: (m) => [`blog:${m[1]}`] },
  { path: /^\/rss\.xml$/, params: ["category"], tags: () => ["blogs"] },
  { path: /^\/sitemap\.xml$/, params: [], tags: () => ["blogs"] },
  // The sitemap index's files (/sitemaps/pages.xml, /sitemaps/posts-1.xml, ...): every blog write purges them.
  { path: /^\/sitemaps\/(pages|posts-\d{1,6})\.xml$/, params: [], tags: () => ["blogs"] },
  { path: /^\/api\/(blogs|latest-blogs)$/, params: PAGING, tags: () => ["blogs"] },
  { path: /^\/api\/blog$/, params: ["email", ...PAGING], tags: () => ["blogs"] },
  { path: new RegExp(`^/api/(?:blogs|blog)/${ID}$`), params: [], tags: (m) => [`blog:${m[1]}`] },
  // A post's comments: a comment written or deleted purges blog:{id} (tags.ts, blog.reaction).
  { path: new RegExp(`^/api/blogs/${ID}/comments$`), params: PAGING, tags: (m) => ["blogs", `blog:${m[1]}`] },
  { path: /^\/api\/authors$/, params: PAGING, tags: () => ["authors"] },
  { path: /^\/api\/review$/, params: PAGING, tags: () => ["reviews"] },
];

/** Remix's own parameters on its data requests (`/allBlogs.data?_routes=...`, `?index`): always kept. */
const REMIX_PARAMS = ["_routes", "index"];

/** The page a URL shows: Remix's data requests (`/allBlogs.data`, `/_root.data` for `/`) count as their page. */
function pagePath(url: URL): string {
  const path = url.pathname.replace(/\/+$/, "") || "/";
  if (path === "/_root.data") return "/";
  return path.endsWith(".data") ? path.slice(0, -".data".length) : path;
}

/**
 * The tags of a shareable URL (every shared answer also carries `site`), or null when the URL is never
 * shared: dashboards, profiles, auth pages, health, anything not listed above.
 */
export function sharedTags(url: URL): string[] | null {
  const route = sharedRoute(url);
  return route ? ["site", ...route.tags] : null;
}

function sharedRoute(url: URL): { tags: string[]; params: readonly string[] } | null {
  const path = pagePath(url);
  for (const route of ROUTES) {
    const match = path.match(route.path);
    if (match) return { tags: route.tags(match), params: route.params };
  }
  return null;
}

/**
 * The URL a shared answer is keyed and rendered by: only the parameters its page reads (each once,
 * sorted), Remix's own, nothing else. Null for a URL that is never shared.
 */
export function sharedUrl(url: URL): URL | null {
  const route = sharedRoute(url);
  if (!route) return null;
  const kept = new URL(url);
  kept.search = "";
  const names = [...route.params, ...REMIX_PARAMS].sort();
  for (const name of names) {
    const value = url.searchParams.get(name);
    if (value !== null) kept.searchParams.set(name, value);
  }
  return kept;
}

/**
 * A post's "not found" is shared only until the next whole minute: a scheduled post goes public on its
 * minute (the schedule has minute precision), and its cached 404 must not outlive that while the lists
 * already show it; the minute cron's purge then only tidies. Every post URL's 404
 * gets the same lifetime, so the answer says nothing about whether a hidden post is there.
 */
export function sharedCacheControl(request: Request, status: number, now = Date.now()): string {
  if (status !== 404 || !POST_PAGE.test(new URL(request.url).pathname)) return SHARED_CACHE_CONTROL;
  const untilNextMinute = Math.max(1, Math.ceil((60_000 - (now % 60_000)) / 1000));
  return `public, max-age=0, s-maxage=${untilNextMinute}`;
}
const POST_PAGE = new RegExp(`^(?:/blogs/${ID}(?:/${SLUG_PATTERN})?|/api/(?:blogs|blog)/${ID})$`);

/**
 * Sets the answer's caching headers: shared (with its tags) when the request was anonymous, the URL is
 * a shared one, and the answer is a plain 200 or 404 that sets no cookie; `private, no-store` otherwise.
 * Answers that already say `immutable` (static files, images) keep their own rule.
 */
export function applyCachePolicy(request: Request, response: Response): { response: Response; tags: string[] | null } {
  // Images and built files keep their own rule (immutable, or no longer than an expiring upload lives).
  // A remote avatar (worker/api/federation.ts) keeps its day-long public rule too.
  if (/^\/((images|assets)\/|ap\/avatars$)/.test(new URL(request.url).pathname)) return { response, tags: null };
  const tags = shareableTags(request, response);
  const out = new Response(response.body, response);
  if (tags) {
    out.headers.set("Cache-Control", sharedCacheControl(request, response.status));
    out.headers.set("Cache-Tag", tags.join(","));
    out.headers.set("Vary", SHARED_VARY);
  } else {
    out.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    out.headers.delete("Cache-Tag");
  }
  return { response: out, tags };
}

/**
 * The tags under which this answer will be a shared copy, or null when it is personal: an anonymous
 * read of a shared URL answered with a plain 200 or 404 that sets no cookie. The security headers
 * (worker/security/headers.ts) ask the same question to choose a page's script rule.
 */
export function shareableTags(request: Request, response: Response): string[] | null {
  const tags = isAnonymousRead(request) ? sharedTags(new URL(request.url)) : null;
  const shareable =
    tags !== null && (response.status === 200 || response.status === 404) && !response.headers.has("Set-Cookie");
  return shareable ? tags : null;
}
