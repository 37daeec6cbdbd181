import { clientAddressKey } from "#worker/services/client-address.ts";
import { serverKey } from "#worker/services/federation/domains.ts";
import { importMultikey, fromBase64, verifyAlg } from "#worker/services/federation/keys.ts";
import { ACTOR_TTL_MS, type RemoteActor, type RemoteActors } from "#worker/services/federation/remote.ts";
import {
  precheck,
  readSignature,
  verifyWithPem,
  type IncomingSignature,
} from "#worker/services/federation/signatures.ts";
import { Forbidden, Unauthorized } from "#worker/services/shared/errors.ts";
import type { Kernel } from "#worker/services/kernel.ts";
import { isBlocked } from "#worker/services/federation/blocks.ts";

/** Deliveries one connection (its address) may make per window, before anything else is looked at... */
export const INBOX_PER_CONNECTION = 600;
/** ...and one remote server (its verified actors' host) per window... */
export const INBOX_PER_SERVER = 300;
/** ...of this many seconds. */
export const INBOX_WINDOW_SECONDS = 60;

export const SIGNATURE_REFUSED = "The request's HTTP signature is missing or does not verify.";

/** Whether a signature verifies as this actor's: its RSA key, or its Ed25519 Multikey. */
export async function verifiesAs(actor: RemoteActor, sig: IncomingSignature): Promise<boolean> {
  if (sig.keyId === actor.keyId) return verifyWithPem(sig, actor.publicKeyPem);
  if (sig.keyId === actor.assertionKeyId && actor.assertionMultibase && sig.base !== null) {
    if (sig.alg !== null && sig.alg !== "ed25519") return false;
    const key = await importMultikey(actor.assertionMultibase);
    return !!key && verifyAlg(key, "ed25519", fromBase64(sig.signature), new TextEncoder().encode(sig.base));
  }
  return false;
}

/**
 * Who signed a delivery, checked in the order that costs an attacker the most and us the least: the
 * connection's limit, then everything the request itself can prove wrong (covered parts, time window,
 * digest), then the blocks (`isBlocked`: a blocked server's key is never fetched), and only then the key,
 * from D1 or, when unknown or stale, fetched. A fetched actor is stored only once its signature
 * verified; then the limit of its server (its registrable domain) is counted.
 */
export function createAuthenticator(k: Kernel, deps: { remote: RemoteActors }) {
  const { db, rateLimit } = k;
  const { remote } = deps;
  return async function authenticate(request: Request, body: string, now = Date.now()): Promise<RemoteActor> {
    const address = clientAddressKey(request.headers.get("CF-Connecting-IP"));
    await rateLimit.hit(`ap-inbox-conn:${address}`, INBOX_PER_CONNECTION, INBOX_WINDOW_SECONDS);
    const sig = readSignature(request);
    if (!sig) throw new Unauthorized(SIGNATURE_REFUSED, "signature-required");
    if (await precheck(request, body, sig, now)) throw new Unauthorized(SIGNATURE_REFUSED, "signature-invalid");
    try {
      if (!/^https?:$/.test(new URL(sig.keyId).protocol)) throw new Error("not a web key");
    } catch {
      throw new Unauthorized(SIGNATURE_REFUSED, "signature-invalid");
    }
    if (await isBlocked(db, sig.keyId)) throw new Forbidden("This account or its server is blocked here.", "blocked");
    const { known, fetch } = await remote.candidates(sig.keyId);
    let sender: RemoteActor | null = null;
    if (known && (await verifiesAs(known, sig))) {
      sender = known;
      // A stale copy is refreshed when its server answers (and kept when it does not: a gone actor).
      if (now - known.fetchedAt >= ACTOR_TTL_MS) {
        const fresh = await fetch();
        if (fresh && (await verifiesAs(fresh, sig))) sender = (await remote.remember(fresh)) ?? known;
      }
    } else {
      const fresh = await fetch();
      if (fresh && (await verifiesAs(fresh, sig))) sender = await remote.remember(fresh);
    }
    if (!sender) throw new Unauthorized(SIGNATURE_REFUSED, "signature-invalid");
    await rateLimit.hit(`ap-inbox:${serverKey(sender.host)}`, INBOX_PER_SERVER, INBOX_WINDOW_SECONDS);
    return sender;
  };
}
