import { parseId } from "#worker/services/shared/ids.ts";

/** The ActivityStreams vocabulary as this site writes it: contexts, media types, the URLs of our objects. */
export const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";
export const SECURITY_CONTEXT = "https://w3id.org/security/v1";
export const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
export const ACTIVITY_JSON = "application/activity+json";
export const LD_JSON = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

/** The extension terms Mastodon reads (its own context's names), declared inline. */
export const EXTENSIONS = {
  manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
  toot: "http://joinmastodon.org/ns#",
  discoverable: "toot:discoverable",
  indexable: "toot:indexable",
  Hashtag: "as:Hashtag",
  sensitive: "as:sensitive",
  // FEP-521a's `assertionMethod`: defined by none of the contexts above at the top level (data-integrity/v1
  // names it only inside `proofPurpose`, did/v1 is @protected and clashes), so a JSON-LD reader (Fedify)
  // would drop it and never find our Multikey. The definition is did/v1's.
  assertionMethod: { "@id": "https://w3id.org/security#assertionMethod", "@type": "@id", "@container": "@set" },
};

/** Multikey and assertionMethod (FEP-521a). */
export const MULTIKEY_CONTEXT = "https://w3id.org/security/multikey/v1";

export const ACTOR_CONTEXT = [AS_CONTEXT, SECURITY_CONTEXT, MULTIKEY_CONTEXT, EXTENSIONS];
export const OBJECT_CONTEXT = [AS_CONTEXT, EXTENSIONS];

/** The one site actor's id in ap_actors (writers use their user id). */
export const SITE_ACTOR = "site";

/** Whether a request asks for ActivityStreams JSON (content negotiation on pages and actor URLs). */
export function wantsActivityJson(request: Request): boolean {
  const accept = (request.headers.get("Accept") ?? "").toLowerCase();
  return accept.includes("application/activity+json") || accept.includes("application/ld+json");
}

/** The URLs of our actors and objects, all under one origin. */
export function urls(origin: string) {
  const actor = (id: string) => (id === SITE_ACTOR ? `${origin}/ap/site` : `${origin}/ap/users/${id}`);
  return {
    origin,
    actor,
    key: (id: string) => `${actor(id)}#main-key`,
    inbox: (id: string) => `${actor(id)}/inbox`,
    outbox: (id: string) => `${actor(id)}/outbox`,
    followers: (id: string) => `${actor(id)}/followers`,
    following: (id: string) => `${actor(id)}/following`,
    sharedInbox: `${origin}/ap/inbox`,
    profile: (id: string) => (id === SITE_ACTOR ? `${origin}/about` : `${origin}/writers/${id}`),
    post: (blogId: string) => `${origin}/ap/posts/${blogId}`,
    note: (id: string) => `${origin}/ap/notes/${id}`,
    postPage: (blogId: string) => `${origin}/blogs/${blogId}`,
    comment: (blogId: string, commentId: string) => `${origin}/blogs/${blogId}#comment-${commentId}`,
    absolute: (path: string | null | undefined) => (path ? new URL(path, origin).href : null),
    /** The local actor a URL names (ours: the site, or a writer's id), or null. The inverse of `actor`. */
    actorIdOf(url: string | null | undefined): string | null {
      if (!url) return null;
      if (url === actor(SITE_ACTOR)) return SITE_ACTOR;
      const prefix = `${origin}/ap/users/`;
      return url.startsWith(prefix) ? parseId(url.slice(prefix.length)) : null;
    },
    /** The post a URL names (its object id, or its page with or without the slug), or null. */
    blogIdOf(url: string | null | undefined): string | null {
      if (!url) return null;
      const match = url.match(/^(.*)\/(?:ap\/posts|blogs)\/([^/]+)(?:\/[a-z0-9-]{1,100})?$/);
      return match && match[1] === origin ? parseId(match[2]) : null;
    },
    /** The writer a WebFinger resource URL names (their actor or profile page), or null. */
    writerIdOf(url: string): string | null {
      const match = url.match(/^(.*)\/(?:ap\/users|writers)\/([^/]+)$/);
      return match && match[1] === origin ? parseId(match[2]) : null;
    },
  };
}

export type Urls = ReturnType<typeof urls>;

/** The id of an ActivityStreams reference: a string, or an object's `id`. */
export function idOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string") {
    return (value as { id: string }).id;
  }
  return null;
}

/** A value that may be one thing or a list, as a list. */
export function listOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** The first URL of an `icon`/`image`/`url` value (string, Link, Image, or a list of them). */
export function firstUrl(value: unknown): string | null {
  for (const item of listOf(value)) {
    if (typeof item === "string") return item;
    if (item && typeof item === "object") {
      const url = (item as { url?: unknown; href?: unknown }).url ?? (item as { href?: unknown }).href;
      const found = firstUrl(url);
      if (found) return found;
    }
  }
  return null;
}
