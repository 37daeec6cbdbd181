import { and, eq, inArray, ne, or } from "drizzle-orm";
import { schema } from "#worker/db.ts";
import { signedRequest } from "#worker/services/federation/signatures.ts";
import { ACTIVITY_JSON, firstUrl, idOf, LD_JSON, listOf, type Urls } from "#worker/services/federation/vocab.ts";
import { safeLink } from "#worker/security/safe-link.ts";
import { fetchOutbound, isOutboundAllowed, readOutboundBody } from "#worker/security/outbound.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { siteSigner, type LocalActors } from "#worker/services/federation/actors.ts";

/** A remote fetch gives up after this long... */
export const FETCH_TIMEOUT_MS = 5_000;
/** ...and reads at most this much of an answer. */
export const FETCH_MAX_BYTES = 256 * 1024;
/** A cached remote actor is fetched again after a day (and at once when its key no longer verifies). */
export const ACTOR_TTL_MS = 24 * 60 * 60 * 1000;

export type RemoteActor = typeof schema.apRemoteActors.$inferSelect;
/** An actor as fetched: with every key its document lists (`keyId` above is the one chosen). */
export type FetchedActor = RemoteActor & { keys: { keyId: string; publicKeyPem: string }[] };

/** The most keys kept of one actor. */
const MAX_KEYS = 10;

/** Signs our outgoing GETs (servers in "secure mode" refuse unsigned ones): the site actor's key. */
export type GetSigner = () => Promise<{ keyId: string; privateKeyPem: string }>;

/**
 * Whether a URL may be fetched: https (http only in a test configuration), and, outside one, no
 * loopback, private, link-local or otherwise internal host: the one outbound rule (worker/security/outbound.ts).
 */
export function isFetchable(url: string, allowPrivate: boolean): boolean {
  return isOutboundAllowed(url, { allowHttp: allowPrivate, allowPrivate });
}

/**
 * GETs an ActivityStreams document: signed at every hop, with a timeout, a size cap, at most 3
 * redirects, each hop checked by the outbound rule. Null on any failure. A document is believed for the
 * host that served it, so a redirect to another host is refused (an open redirect on a server would
 * otherwise speak for its accounts); only a WebFinger answer (`crossHost`), which names an actor URL
 * that is then fetched under this rule, may come from elsewhere.
 */
export async function fetchDocument(
  url: string,
  opts: { allowPrivate: boolean; signer?: GetSigner; crossHost?: boolean },
): Promise<Record<string, unknown> | null> {
  const accept = `${ACTIVITY_JSON}, ${LD_JSON}`;
  try {
    const { response } = await fetchOutbound(url.split("#")[0]!, {
      allowHttp: opts.allowPrivate,
      allowPrivate: opts.allowPrivate,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxRedirects: 3,
      sameHost: !opts.crossHost,
      request: async (target) => {
        const key = opts.signer ? await opts.signer() : null;
        return key
          ? signedRequest(target, { method: "GET", accept }, key.keyId, key.privateKeyPem)
          : new Request(target, { headers: { Accept: accept } });
      },
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const doc = JSON.parse(new TextDecoder().decode(await readOutboundBody(response, FETCH_MAX_BYTES))) as unknown;
    return doc && typeof doc === "object" && !Array.isArray(doc) ? (doc as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A remote avatar is at most this large... */
export const AVATAR_MAX_BYTES = 512 * 1024;
const AVATAR_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"];

/** ...and only a raster image: fetched with the same limits as documents (never SVG, never HTML). */
export async function fetchAvatar(
  url: string,
  allowPrivate: boolean,
): Promise<{ bytes: Uint8Array; type: string } | null> {
  try {
    // No redirects: an avatar is where the actor says it is.
    const { response } = await fetchOutbound(url, {
      allowHttp: allowPrivate,
      allowPrivate,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxRedirects: 0,
    });
    const type = (response.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!response.ok || !AVATAR_TYPES.includes(type)) {
      await response.body?.cancel();
      return null;
    }
    return { bytes: await readOutboundBody(response, AVATAR_MAX_BYTES), type };
  } catch {
    return null;
  }
}

const hostOf = (url: string): string | null => (URL.canParse(url) ? new URL(url).host : null);

const ACTOR_TYPES = new Set(["Person", "Service", "Application", "Group", "Organization"]);

/** A `publicKey` value: one key, or a list of them (some servers publish several). */
function keysOf(doc: Record<string, unknown>) {
  return listOf(doc.publicKey).filter(
    (key): key is { id: string; owner?: unknown; publicKeyPem: string } =>
      !!key &&
      typeof key === "object" &&
      typeof (key as { id?: unknown }).id === "string" &&
      typeof (key as { publicKeyPem?: unknown }).publicKeyPem === "string",
  );
}

/** The actor's Ed25519 `assertionMethod` Multikey (FEP-521a), if it publishes one of its own. */
function assertionOf(doc: Record<string, unknown>, id: string): { id: string; multibase: string } | null {
  for (const method of listOf(doc.assertionMethod)) {
    const m = method as { id?: unknown; type?: unknown; controller?: unknown; publicKeyMultibase?: unknown };
    if (!m || typeof m !== "object" || m.type !== "Multikey") continue;
    if (
      typeof m.id !== "string" ||
      typeof m.publicKeyMultibase !== "string" ||
      !m.publicKeyMultibase.startsWith("z6Mk")
    ) {
      continue;
    }
    if (idOf(m.controller) !== id || hostOf(m.id) !== hostOf(id)) continue;
    return { id: m.id, multibase: m.publicKeyMultibase };
  }
  return null;
}

/**
 * The fields we keep of an actor document; null when it is not one (or its key is not its own).
 * `keyId`: the key a signature names, chosen among several when the document lists more than one.
 */
export function toRemoteActor(doc: Record<string, unknown>, fetchedFrom: string, keyId?: string): FetchedActor | null {
  const id = idOf(doc.id);
  const type = doc.type;
  if (!id || typeof type !== "string" || !ACTOR_TYPES.has(type)) return null;
  let host: string;
  try {
    host = new URL(id).host;
    // An actor is only believed from its own server.
    if (new URL(fetchedFrom).host !== host || !/^https?:$/.test(new URL(id).protocol)) return null;
  } catch {
    return null;
  }
  // An actor's keys are the keys on its own server that it owns: a key id on another host, or naming
  // another owner, is never its own (listing someone else's key id must not take it over).
  const owned = keysOf(doc).filter((k) => (k.owner === undefined || idOf(k.owner) === id) && hostOf(k.id) === host);
  const key = owned.find((k) => k.id === keyId) ?? owned[0];
  const inbox = idOf(doc.inbox);
  if (!key || !inbox) return null;
  const endpoints = doc.endpoints as { sharedInbox?: unknown } | undefined;
  const text = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : "");
  const assertion = assertionOf(doc, id);
  const aliases = listOf(doc.alsoKnownAs)
    .map(idOf)
    .filter((alias): alias is string => !!alias)
    .slice(0, 20);
  return {
    id,
    host,
    handle: text(doc.preferredUsername, 100),
    name: text(doc.name, 200) || text(doc.preferredUsername, 100),
    iconUrl: safeLink(firstUrl(doc.icon)),
    profileUrl: safeLink(firstUrl(doc.url)) ?? id,
    inbox,
    sharedInbox: idOf(endpoints?.sharedInbox),
    keyId: key.id,
    publicKeyPem: key.publicKeyPem,
    assertionKeyId: assertion?.id ?? null,
    assertionMultibase: assertion?.multibase ?? null,
    alsoKnownAs: aliases.length ? JSON.stringify(aliases) : null,
    followersUrl: idOf(doc.followers),
    fetchedAt: Date.now(),
    keys: owned.slice(0, MAX_KEYS).map((k) => ({ keyId: k.id, publicKeyPem: k.publicKeyPem })),
  };
}

/**
 * Remote actors: read from D1, fetched when unknown or stale. What we fetch on our own initiative (an
 * account someone here follows) is stored at once; the signer a delivery names is only a candidate
 * until its signature verified (`remember`), so a forged delivery leaves nothing behind.
 */
export function createRemoteActors(k: Kernel, deps: { actors: LocalActors; u: Urls }) {
  const { db } = k;
  // Every fetch is signed with the site actor's key (some servers answer nothing unsigned).
  const opts = { allowPrivate: k.config.federation.allowPrivate, signer: () => siteSigner(deps.actors, deps.u) };
  /**
   * Stores an actor and, when it was fetched, every key it lists (ap_remote_keys). A key id another
   * stored actor owns stays that actor's: the newcomer is refused when its main key or Multikey is
   * taken (null), and its other keys that are taken are left out. Never is the older owner deleted.
   */
  async function store(actor: RemoteActor | FetchedActor): Promise<RemoteActor | null> {
    const { keys, ...row } = { keys: null, ...actor } as RemoteActor & { keys: FetchedActor["keys"] | null };
    const { id: _id, ...rest } = row;
    const k = schema.apRemoteKeys;
    const a = schema.apRemoteActors;
    const ids = [row.keyId, ...(row.assertionKeyId ? [row.assertionKeyId] : []), ...(keys ?? []).map((x) => x.keyId)];
    const [actorsOwning, keysOwned] = await Promise.all([
      db
        .select({ keyId: a.keyId, assertionKeyId: a.assertionKeyId })
        .from(a)
        .where(and(ne(a.id, row.id), or(inArray(a.keyId, ids), inArray(a.assertionKeyId, ids)))),
      db
        .select({ keyId: k.keyId })
        .from(k)
        .where(and(ne(k.actorId, row.id), inArray(k.keyId, ids))),
    ]);
    const taken = new Set([
      ...actorsOwning.flatMap((o) => [o.keyId, o.assertionKeyId]),
      ...keysOwned.map((o) => o.keyId),
    ]);
    if (taken.has(row.keyId) || (row.assertionKeyId && taken.has(row.assertionKeyId))) return null;
    const own = (keys ?? []).filter((key) => !taken.has(key.keyId));
    await db.batch([
      db.insert(a).values(row).onConflictDoUpdate({ target: a.id, set: rest }),
      ...(keys
        ? [
            db.delete(k).where(eq(k.actorId, row.id)),
            ...own.map((key) =>
              db
                .insert(k)
                .values({ ...key, actorId: row.id })
                .onConflictDoNothing(),
            ),
          ]
        : []),
    ]);
    return row;
  }

  /** The stored actor owning a key: its main key, its Multikey, or another key it lists (as that key). */
  async function byKey(keyId: string): Promise<RemoteActor | null> {
    const direct =
      (await db.query.apRemoteActors.findFirst({ where: eq(schema.apRemoteActors.keyId, keyId) })) ??
      (await db.query.apRemoteActors.findFirst({ where: eq(schema.apRemoteActors.assertionKeyId, keyId) }));
    if (direct) return direct;
    const [other] = await db
      .select({ actor: schema.apRemoteActors, pem: schema.apRemoteKeys.publicKeyPem })
      .from(schema.apRemoteKeys)
      .innerJoin(schema.apRemoteActors, eq(schema.apRemoteActors.id, schema.apRemoteKeys.actorId))
      .where(eq(schema.apRemoteKeys.keyId, keyId))
      .limit(1);
    // Seen through that key: what verifies the signature is the key it names.
    return other ? { ...other.actor, keyId, publicKeyPem: other.pem } : null;
  }

  /** The actor a URL (its id, or a key URL) names, fetched, not stored. */
  async function fetchActor(url: string, keyId?: string): Promise<RemoteActor | null> {
    const doc = await fetchDocument(url, opts);
    if (!doc) return null;
    // A key URL may answer with the key alone (its owner names the actor).
    if (!doc.inbox && doc.owner) {
      const owner = idOf(doc.owner);
      const actorDoc = owner ? await fetchDocument(owner, opts) : null;
      return actorDoc && owner ? toRemoteActor(actorDoc, owner, keyId) : null;
    }
    return toRemoteActor(doc, url, keyId);
  }

  return {
    /** A document believed for its own host (no redirect elsewhere). */
    fetchDocument: (url: string) => fetchDocument(url, opts),
    /** A WebFinger answer: it may redirect to another host (a server's web domain differing from its own). */
    fetchWebFinger: (url: string) => fetchDocument(url, { ...opts, crossHost: true }),

    /** An actor by its id, stored. `fresh`: fetch even when a recent copy is stored. */
    async get(id: string, fresh = false): Promise<RemoteActor | null> {
      const known = await db.query.apRemoteActors.findFirst({ where: eq(schema.apRemoteActors.id, id) });
      if (known && !fresh && Date.now() - known.fetchedAt < ACTOR_TTL_MS) return known;
      const fetched = await fetchActor(id);
      return (fetched ? await store(fetched) : null) ?? known ?? null;
    },

    /**
     * The candidates owning a signature's keyId, best first: the stored copy (kept even when its server
     * no longer answers: a gone actor's Delete is still signed with it), then a fresh fetch (a rotated
     * key). Nothing is stored here.
     */
    async candidates(keyId: string): Promise<{ known: RemoteActor | null; fetch: () => Promise<RemoteActor | null> }> {
      const known = await byKey(keyId);
      return {
        known,
        fetch: async () => {
          const fetched = await fetchActor(known?.id ?? keyId, keyId);
          return fetched && (fetched.keyId === keyId || fetched.assertionKeyId === keyId) ? fetched : null;
        },
      };
    },

    /** Stores an actor whose signature verified. */
    remember: store,
  };
}

export type RemoteActors = ReturnType<typeof createRemoteActors>;
