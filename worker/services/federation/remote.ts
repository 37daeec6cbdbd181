import { and, eq, ne } from "drizzle-orm";
import type { Db } from "#worker/db.ts";
import { schema } from "#worker/db.ts";
import { signedRequest } from "#worker/services/federation/signatures.ts";
import { ACTIVITY_JSON, firstUrl, idOf, LD_JSON } from "#worker/services/federation/vocab.ts";

/** A remote fetch gives up after this long... */
export const FETCH_TIMEOUT_MS = 5_000;
/** ...and reads at most this much of an answer. */
export const FETCH_MAX_BYTES = 256 * 1024;
/** A cached remote actor is fetched again after a day (and at once when its key no longer verifies). */
export const ACTOR_TTL_MS = 24 * 60 * 60 * 1000;

export type RemoteActor = typeof schema.apRemoteActors.$inferSelect;

/** Signs our outgoing GETs (servers in "secure mode" refuse unsigned ones): the site actor's key. */
export type GetSigner = () => Promise<{ keyId: string; privateKeyPem: string }>;

function isPrivateIPv4(host: string): boolean {
  const parts = host.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const [a, b] = parts as [number, number, number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/**
 * Whether a URL may be fetched: https (http only in a test configuration), and, outside one, no
 * loopback, private, link-local or otherwise internal host. (Names that resolve to such addresses are
 * refused by Cloudflare's fetch itself in production: a Worker cannot reach private networks.)
 */
export function isFetchable(url: string, allowPrivate: boolean): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (allowPrivate) return parsed.protocol === "https:" || parsed.protocol === "http:";
  if (parsed.protocol !== "https:") return false;
  const host = parsed.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) {
    return false;
  }
  if (!host.includes(".") && !host.includes(":")) return false;
  if (isPrivateIPv4(host)) return false;
  if (host.includes(":")) {
    // IPv6 literals: loopback, unspecified, unique-local, link-local, IPv4-mapped.
    if (host === "::1" || host === "::" || /^(fc|fd|fe8|fe9|fea|feb)/.test(host) || host.startsWith("::ffff:")) {
      return false;
    }
  }
  return true;
}

/** Reads a body up to `max` bytes (as text, or the bytes); null when it is longer. */
async function readCapped(response: Response, max: number): Promise<string | null>;
async function readCapped(response: Response, max: number, raw: true): Promise<Uint8Array | null>;
async function readCapped(response: Response, max: number, raw = false): Promise<string | Uint8Array | null> {
  const declared = Number(response.headers.get("Content-Length") ?? "0");
  if (declared > max) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return raw ? new Uint8Array() : "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return raw ? all : new TextDecoder().decode(all);
}

/**
 * GETs an ActivityStreams document: signed, with a timeout, a size cap, at most 3 redirects, each
 * hop checked by isFetchable. Null on any failure.
 */
export async function fetchDocument(
  url: string,
  opts: { allowPrivate: boolean; signer?: GetSigner },
): Promise<Record<string, unknown> | null> {
  let target = url.split("#")[0]!;
  for (let hop = 0; hop < 4; hop++) {
    if (!isFetchable(target, opts.allowPrivate)) return null;
    try {
      const key = opts.signer ? await opts.signer() : null;
      const request = key
        ? await signedRequest(
            target,
            { method: "GET", accept: `${ACTIVITY_JSON}, ${LD_JSON}` },
            key.keyId,
            key.privateKeyPem,
          )
        : new Request(target, { headers: { Accept: `${ACTIVITY_JSON}, ${LD_JSON}` } });
      const response = await fetch(request, { redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (response.status >= 300 && response.status < 400) {
        const location = response.headers.get("Location");
        await response.body?.cancel();
        if (!location) return null;
        target = new URL(location, target).href;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        return null;
      }
      const text = await readCapped(response, FETCH_MAX_BYTES);
      if (text === null) return null;
      const doc = JSON.parse(text) as unknown;
      return doc && typeof doc === "object" && !Array.isArray(doc) ? (doc as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** A remote avatar is at most this large... */
export const AVATAR_MAX_BYTES = 512 * 1024;
const AVATAR_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"];

/** ...and only a raster image: fetched with the same limits as documents (never SVG, never HTML). */
export async function fetchAvatar(
  url: string,
  allowPrivate: boolean,
): Promise<{ bytes: Uint8Array; type: string } | null> {
  if (!isFetchable(url, allowPrivate)) return null;
  try {
    const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    const type = (response.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!response.ok || !AVATAR_TYPES.includes(type)) {
      await response.body?.cancel();
      return null;
    }
    const bytes = await readCapped(response, AVATAR_MAX_BYTES, true);
    return bytes === null ? null : { bytes, type };
  } catch {
    return null;
  }
}

const ACTOR_TYPES = new Set(["Person", "Service", "Application", "Group", "Organization"]);

/** The fields we keep of an actor document; null when it is not one (or its key is not its own). */
export function toRemoteActor(doc: Record<string, unknown>, fetchedFrom: string): RemoteActor | null {
  const id = idOf(doc.id);
  const type = doc.type;
  if (!id || typeof type !== "string" || !ACTOR_TYPES.has(type)) return null;
  let host: string;
  try {
    host = new URL(id).host;
    // An actor is only believed from its own server.
    if (new URL(fetchedFrom).host !== host) return null;
  } catch {
    return null;
  }
  const key = doc.publicKey as { id?: unknown; owner?: unknown; publicKeyPem?: unknown } | undefined;
  const inbox = idOf(doc.inbox);
  if (!key || typeof key.id !== "string" || typeof key.publicKeyPem !== "string" || !inbox) return null;
  if (key.owner !== undefined && idOf(key.owner) !== id) return null;
  const endpoints = doc.endpoints as { sharedInbox?: unknown } | undefined;
  const text = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : "");
  return {
    id,
    host,
    handle: text(doc.preferredUsername, 100),
    name: text(doc.name, 200) || text(doc.preferredUsername, 100),
    iconUrl: firstUrl(doc.icon),
    profileUrl: firstUrl(doc.url) ?? id,
    inbox,
    sharedInbox: idOf(endpoints?.sharedInbox),
    keyId: key.id,
    publicKeyPem: key.publicKeyPem,
    fetchedAt: Date.now(),
  };
}

/** Remote actors: read from D1, fetched (and stored) when unknown or stale. */
export function createRemoteActors(db: Db, opts: { allowPrivate: boolean; signer?: GetSigner }) {
  async function store(actor: RemoteActor): Promise<RemoteActor> {
    const { id: _id, ...rest } = actor;
    // A key id moving from one actor to another is refused by its unique index: drop the stale owner.
    await db.batch([
      // (Never the actor itself: deleting its row would take its follows and posts with it.)
      db
        .delete(schema.apRemoteActors)
        .where(and(eq(schema.apRemoteActors.keyId, actor.keyId), ne(schema.apRemoteActors.id, actor.id))),
      db
        .insert(schema.apRemoteActors)
        .values(actor)
        .onConflictDoUpdate({ target: schema.apRemoteActors.id, set: rest }),
    ]);
    return actor;
  }

  async function fetchActor(url: string): Promise<RemoteActor | null> {
    const doc = await fetchDocument(url, opts);
    if (!doc) return null;
    // A key URL may answer with the key alone (its owner names the actor).
    if (!doc.inbox && doc.owner) {
      const owner = idOf(doc.owner);
      const actorDoc = owner ? await fetchDocument(owner, opts) : null;
      const actor = actorDoc && owner ? toRemoteActor(actorDoc, owner) : null;
      return actor ? store(actor) : null;
    }
    const actor = toRemoteActor(doc, url);
    return actor ? store(actor) : null;
  }

  return {
    fetchDocument: (url: string) => fetchDocument(url, opts),

    /** An actor by its id. `fresh`: fetch even when a recent copy is stored. */
    async get(id: string, fresh = false): Promise<RemoteActor | null> {
      const known = await db.query.apRemoteActors.findFirst({ where: eq(schema.apRemoteActors.id, id) });
      if (known && !fresh && Date.now() - known.fetchedAt < ACTOR_TTL_MS) return known;
      return (await fetchActor(id)) ?? known ?? null;
    },

    /** The actor owning a signature's keyId. `fresh`: the stored key did not verify; fetch it again. */
    async byKeyId(keyId: string, fresh = false): Promise<RemoteActor | null> {
      const known = await db.query.apRemoteActors.findFirst({ where: eq(schema.apRemoteActors.keyId, keyId) });
      if (known && !fresh && Date.now() - known.fetchedAt < ACTOR_TTL_MS) return known;
      const fetched = await fetchActor(known?.id ?? keyId);
      return fetched && fetched.keyId === keyId ? fetched : null;
    },
  };
}

export type RemoteActors = ReturnType<typeof createRemoteActors>;
