import type { Env } from "#worker/env.ts";
import {
  applyCachePolicy,
  isAnonymousRead,
  SHARED_SECONDS,
  STALE_SECONDS,
  sharedTags,
  sharedUrl,
} from "#worker/cache/policy.ts";

/**
 * The shared cache in front of the app. In production Cloudflare's Workers Cache sits in front of the
 * Worker (`[cache] enabled` in wrangler.toml) and reads the policy's own headers; the Worker then only
 * sees misses, and purges with `ctx.cache.purge({ tags })`. Where that cache is absent (wrangler dev,
 * the test pool: miniflare does not emulate it) this layer plays its part over the Cache API, with a
 * tag index in D1 so that purging by tag works across isolates. Either way `X-Cache` says what
 * happened: HIT, MISS or BYPASS.
 */
export async function withEdgeCache(
  original: Request,
  env: Env,
  ctx: ExecutionContext,
  next: (request: Request) => Promise<Response>,
): Promise<Response> {
  // An anonymous read of a shared page is keyed AND rendered with only the parameters that page reads
  // (policy.ts, sharedUrl): `?x=N` is the same copy as the bare URL, never a forced miss.
  const kept = isAnonymousRead(original) ? sharedUrl(new URL(original.url)) : null;
  const dropped = kept && kept.href !== original.url ? kept : null;
  const response = await cached(dropped ? new Request(dropped, original) : original, env, ctx, next);
  return dropped ? carryDroppedQuery(new URL(original.url), dropped, response) : response;
}

/**
 * A shared redirect (an old slug, a bare id) was made from the URL without the parameters its page does
 * not read; the visitor's own (`?ref=`, campaign tags) go on to where it leads (issue 47), so they are
 * put back on a same-site Location, per request, never into the shared copy.
 */
function carryDroppedQuery(original: URL, kept: URL, response: Response): Response {
  const location = response.status >= 300 && response.status < 400 ? response.headers.get("Location") : null;
  if (!location) return response;
  const target = new URL(location, original);
  if (target.origin !== original.origin) return response;
  for (const [name, value] of original.searchParams)
    if (!kept.searchParams.has(name) && !target.searchParams.has(name)) target.searchParams.append(name, value);
  response.headers.set(
    "Location",
    location.startsWith("/") ? `${target.pathname}${target.search}${target.hash}` : target.href,
  );
  return response;
}

async function cached(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  next: (request: Request) => Promise<Response>,
): Promise<Response> {
  if (ctx.cache || !isAnonymousRead(request) || !sharedTags(new URL(request.url))) {
    const { response } = applyCachePolicy(request, await next(request));
    response.headers.set("X-Cache", ctx.cache && isAnonymousRead(request) ? "MISS" : "BYPASS");
    return response;
  }
  const key = cacheKey(request);
  const near = memory.get(key.url);
  if (near && Date.now() - near.storedAt < near.fresh * 1000 && !purgedSince(near.tags, near.storedAt)) {
    return served(request, near.response(), "HIT", (Date.now() - near.storedAt) / 1000);
  }
  const hit = await sharedCache().match(key);
  const storedAt = Number(hit?.headers.get(STORED_AT) ?? 0);
  const age = (Date.now() - storedAt) / 1000;
  const { fresh, stale } = lifetimeOf(hit?.headers.get(SHARED_HEADERS));
  if (hit && age <= fresh + stale && !purgedSince((hit.headers.get(TAGS) ?? "").split(","), storedAt)) {
    // Past its shared lifetime, the stale copy is served while one refresh runs behind it.
    if (age > fresh) ctx.waitUntil(refresh(key, env, next));
    return served(request, hit, "HIT", age);
  }
  await hit?.body?.cancel();
  const generatedAt = Date.now();
  const { response, tags } = applyCachePolicy(request, await next(request));
  if (tags) ctx.waitUntil(store(key, response.clone(), tags, env, generatedAt));
  response.headers.set("X-Cache", "MISS");
  return response;
}

const STORED_AT = "X-Edge-Stored-At";
const TAGS = "X-Edge-Tags";

/**
 * When each tag was last purged in this isolate. A copy made before a purge of one of its tags is
 * never served, even if it was stored after the purge: the store runs in `waitUntil`, so a write
 * (and its purge) can land between rendering an answer and storing it.
 */
const purgedAt = new Map<string, number>();
const PURGE_MARKS = 5_000;

function purgedSince(tags: string[], generatedAt: number): boolean {
  return tags.some((tag) => (purgedAt.get(tag) ?? -Infinity) > generatedAt);
}

function markPurged(tags: string[]) {
  const now = Date.now();
  for (const tag of tags) {
    purgedAt.delete(tag);
    purgedAt.set(tag, now);
  }
  while (purgedAt.size > PURGE_MARKS) purgedAt.delete(purgedAt.keys().next().value!);
}

/**
 * The isolate's own copies in front of the Cache API (locally the Cache API is a separate service on
 * disk, one hop per look-up). Bounded, fresh copies only, and cleared by the same purge as the Cache
 * API; wrangler dev and the test pool run one isolate, so no other isolate can hold a stale copy.
 */
interface NearCopy {
  storedAt: number;
  /** Its shared lifetime in seconds (s-maxage): 600, or less for a post's 404 (policy.ts). */
  fresh: number;
  tags: string[];
  response: () => Response;
}
const MEMORY_ENTRIES = 500;
const memory = new Map<string, NearCopy>();

async function remember(url: string, response: Response, tags: string[], storedAt: number) {
  const body = await response.arrayBuffer();
  const init = { status: response.status, statusText: response.statusText, headers: [...response.headers] };
  if (memory.size >= MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
  const { fresh } = lifetimeOf(response.headers.get(SHARED_HEADERS));
  memory.set(url, { storedAt, fresh, tags, response: () => new Response(body, init) });
}

function forget(tags: string[]) {
  markPurged(tags);
  for (const [url, copy] of memory) if (copy.tags.some((t) => tags.includes(t))) memory.delete(url);
}

/** A shared answer's s-maxage and stale-while-revalidate, as the Workers Cache would read them. */
function lifetimeOf(cacheControl: string | null | undefined): { fresh: number; stale: number } {
  const seconds = (name: string) => {
    const m = new RegExp(`${name}=(\\d+)`).exec(cacheControl ?? "");
    return m ? Number(m[1]) : null;
  };
  return { fresh: seconds("s-maxage") ?? SHARED_SECONDS, stale: seconds("stale-while-revalidate") ?? 0 };
}

/** workerd's default cache (the DOM typings know only named caches). */
const sharedCache = () => (caches as unknown as { default: Cache }).default;
const SHARED_HEADERS = "X-Edge-Cache-Control";

/** One entry per URL, whatever the method (HEAD is answered from the GET copy) or the headers. */
function cacheKey(request: Request): Request {
  return new Request(request.url, { method: "GET" });
}

function served(request: Request, stored: Response, outcome: string, age: number): Response {
  const response = new Response(request.method === "HEAD" ? null : stored.body, stored);
  response.headers.set("Cache-Control", stored.headers.get(SHARED_HEADERS) ?? "");
  response.headers.delete(SHARED_HEADERS);
  response.headers.delete(STORED_AT);
  response.headers.delete(TAGS);
  response.headers.set("Age", String(Math.max(0, Math.floor(age))));
  response.headers.set("X-Cache", outcome);
  return response;
}

async function refresh(key: Request, env: Env, next: (request: Request) => Promise<Response>) {
  const generatedAt = Date.now();
  const { response, tags } = applyCachePolicy(key, await next(new Request(key.url)));
  if (tags) await store(key, response, tags, env, generatedAt);
  else await response.body?.cancel();
}

/**
 * Keeps a copy for the shared lifetime plus the stale window (the Cache API has no
 * stale-while-revalidate of its own), and records its tags so a purge can find it.
 */
async function store(key: Request, response: Response, tags: string[], env: Env, generatedAt: number) {
  // The copy's age counts from when it was made, so a purge after that always wins (see purgedSince).
  const storedAt = generatedAt;
  const copy = new Response(response.body, response);
  copy.headers.set(SHARED_HEADERS, response.headers.get("Cache-Control") ?? "");
  copy.headers.set("Cache-Control", `public, max-age=${SHARED_SECONDS + STALE_SECONDS}`);
  copy.headers.set(STORED_AT, String(storedAt));
  copy.headers.set(TAGS, tags.join(","));
  copy.headers.delete("Vary");
  await remember(key.url, copy.clone(), tags, storedAt);
  await env.DB.batch(
    tags.map((tag) => env.DB.prepare("insert or ignore into cache_tags (tag, url) values (?, ?)").bind(tag, key.url)),
  );
  await sharedCache().put(key, copy);
}

/**
 * Forgets this isolate's near copies and purge marks. The workers pool calls it between test files
 * (tests/support/setup.ts): one isolate serves every file there, and a purge a file made on a fake clock
 * set in the future would otherwise keep its tags from ever being served again in later files.
 */
export function forgetIsolateCopies(): void {
  memory.clear();
  purgedAt.clear();
}

/** Removes every cached answer that carries one of `tags`: Workers Cache in production, the local copies here. */
export async function purgeTags(env: Env, ctx: ExecutionContext | undefined, tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  if (ctx?.cache) {
    const result = await ctx.cache.purge({ tags });
    if (!result.success) throw new Error(`purge refused: ${JSON.stringify(result.errors)}`);
    return;
  }
  forget(tags);
  const marks = tags.map(() => "?").join(",");
  const { results } = await env.DB.prepare(`select distinct url from cache_tags where tag in (${marks})`)
    .bind(...tags)
    .all<{ url: string }>();
  await Promise.all(results.map((r) => sharedCache().delete(new Request(r.url))));
  if (results.length) {
    await env.DB.batch(results.map((r) => env.DB.prepare("delete from cache_tags where url = ?").bind(r.url)));
  }
}
