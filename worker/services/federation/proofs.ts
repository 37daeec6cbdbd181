import {
  base58btc,
  fromBase58btc,
  importEd25519Private,
  importMultikey,
  signEd25519,
  verifyAlg,
} from "#worker/services/federation/keys.ts";

/**
 * Object Integrity Proofs (FEP-8b32) with the `eddsa-jcs-2022` cryptosuite (W3C VC Data Integrity
 * EdDSA): the JSON canonicalised (RFC 8785), the proof's options and the document hashed separately
 * (SHA-256 each), the two hashes signed with the author's Ed25519 `assertionMethod` key. A proof makes
 * an activity its author's wherever it travels, so a server forwarding a reply cannot forge one.
 */

export const DATA_INTEGRITY_CONTEXT = "https://w3id.org/security/data-integrity/v1";

/** JSON Canonicalization Scheme (RFC 8785): keys sorted by UTF-16 code units, ES number forms. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > 64) throw new Error("too deeply nested to canonicalise");
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("not a JSON number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(",")}}`;
  }
  throw new Error("not JSON");
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

async function hashData(config: Record<string, unknown>, document: Record<string, unknown>) {
  const [a, b] = await Promise.all([sha256(canonicalJson(config)), sha256(canonicalJson(document))]);
  const out = new Uint8Array(new ArrayBuffer(64));
  out.set(a);
  out.set(b, 32);
  return out;
}

/** The activity with an `eddsa-jcs-2022` proof by `verificationMethod` (the signer's Multikey id). */
export async function withProof(
  activity: Record<string, unknown>,
  verificationMethod: string,
  privateKeyPem: string,
  now = Date.now(),
): Promise<Record<string, unknown>> {
  const contexts = [activity["@context"]].flat().filter((c) => c !== undefined);
  const document = {
    ...activity,
    "@context": contexts.includes(DATA_INTEGRITY_CONTEXT) ? contexts : [...contexts, DATA_INTEGRITY_CONTEXT],
  };
  const config = {
    "@context": document["@context"],
    type: "DataIntegrityProof",
    cryptosuite: "eddsa-jcs-2022",
    verificationMethod,
    proofPurpose: "assertionMethod",
    created: new Date(Math.floor(now / 1000) * 1000).toISOString().replace(".000Z", "Z"),
  };
  const signature = await signEd25519(await importEd25519Private(privateKeyPem), await hashData(config, document));
  const { "@context": _context, ...proof } = config;
  return { ...document, proof: { ...proof, proofValue: `z${base58btc(signature)}` } };
}

export interface ProofCheck {
  /** The key that made the proof (its Multikey id): the caller checks it is its author's. */
  verificationMethod: string;
  /** When it was made (ms), null when it says not or unreadably. */
  created: number | null;
  /** Whether the proof verifies with that key. */
  verify: (multibase: string) => Promise<boolean>;
}

/** The activity's `eddsa-jcs-2022` proof, ready to verify; null when it carries none we read. */
export function readProof(activity: Record<string, unknown>): ProofCheck | null {
  const proofs = [activity.proof].flat().filter(Boolean) as Record<string, unknown>[];
  const proof = proofs.find(
    (p) => p && typeof p === "object" && p.type === "DataIntegrityProof" && p.cryptosuite === "eddsa-jcs-2022",
  );
  if (!proof || typeof proof.verificationMethod !== "string" || typeof proof.proofValue !== "string") return null;
  const { proofValue, ...options } = proof;
  const { proof: _proof, ...document } = activity;
  const created = typeof proof.created === "string" ? Date.parse(proof.created) : NaN;
  return {
    verificationMethod: proof.verificationMethod,
    created: Number.isFinite(created) ? created : null,
    async verify(multibase: string) {
      try {
        if (options.proofPurpose !== "assertionMethod") return false;
        const signature = (proofValue as string).startsWith("z")
          ? fromBase58btc((proofValue as string).slice(1))
          : null;
        const key = await importMultikey(multibase);
        if (!signature || signature.length !== 64 || !key) return false;
        const config = document["@context"] !== undefined ? { ...options, "@context": document["@context"] } : options;
        return await verifyAlg(
          key,
          "ed25519",
          signature,
          (await hashData(config, document)) as Uint8Array<ArrayBuffer>,
        );
      } catch {
        return false;
      }
    },
  };
}
