import {
  fromBase64,
  importPrivateKey,
  importPublicKey,
  isEd25519Pem,
  sha256Digest,
  signBytes,
  verifyAlg,
  type SignatureAlg,
} from "#worker/services/federation/keys.ts";
import { contentDigestMatches, parseRfc9421, rfc9421Base, signRfc9421 } from "#worker/services/federation/rfc9421.ts";

/**
 * HTTP signatures as the fediverse speaks them: draft-cavage-http-signatures-12 (`rsa-sha256`, and the
 * `hs2019` label Mastodon also accepts), what Mastodon, Misskey, Pleroma and GoToSocial send, and
 * RFC 9421 (rfc9421.ts), what Mastodon 4.4+, Fedify and GoToSocial add. Both pass the same checks,
 * in this order: the required parts are covered, the time window holds, the body's digest matches
 * (precheck, before any key is fetched), then the signature verifies with the sender's key.
 */

/** A signature lives from its creation to its `expires`: this long when none is named... */
export const DEFAULT_LIFE_MS = 5 * 60 * 1000;
/** ...and at most this long, whatever it names (Mastodon's EXPIRATION_WINDOW_LIMIT)... */
export const MAX_LIFE_MS = 12 * 60 * 60 * 1000;
/** ...plus this much clock skew either way (Mastodon's CLOCK_SKEW_MARGIN). */
export const CLOCK_SKEW_MS = 60 * 60 * 1000;

/** The headers every cavage POST we sign covers. */
const SIGNED_POST = ["(request-target)", "host", "date", "digest", "content-type"];
const SIGNED_GET = ["(request-target)", "host", "date", "accept"];

export type SigningStyle = "rfc9421" | "cavage";

export interface ParsedSignature {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: string;
  created?: number;
  expires?: number;
}

/** An incoming signature of either kind, with the base its signature is over. */
export interface IncomingSignature {
  scheme: SigningStyle;
  keyId: string;
  /** The algorithm it declares; null: the key's own (RSA PKCS#1 v1.5 or Ed25519). */
  alg: SignatureAlg | null;
  /** Seconds since the epoch, as declared (null: none). */
  created: number | null;
  expires: number | null;
  covered: string[];
  base: string | null;
  signature: string;
}

function signingString(
  method: string,
  url: URL,
  headers: Headers,
  names: string[],
  times: { created?: number; expires?: number } = {},
): string | null {
  const lines: string[] = [];
  for (const name of names) {
    if (name === "(request-target)") {
      lines.push(`(request-target): ${method.toLowerCase()} ${url.pathname}${url.search}`);
      continue;
    }
    if (name === "(created)" || name === "(expires)") {
      const value = name === "(created)" ? times.created : times.expires;
      if (value === undefined) return null;
      lines.push(`${name}: ${value}`);
      continue;
    }
    const value = name === "host" ? (headers.get("host") ?? url.host) : headers.get(name);
    if (value === null) return null;
    lines.push(`${name}: ${value}`);
  }
  return lines.join("\n");
}

/**
 * A request signed with a local actor's key (`keyId` is the actor's key URL): draft-cavage by default,
 * RFC 9421 when `style` says so (a POST whose peer last accepted it).
 */
export async function signedRequest(
  url: string,
  init: { method: "GET" | "POST"; body?: string; accept?: string; style?: SigningStyle },
  keyId: string,
  privateKeyPem: string,
  now = Date.now(),
): Promise<Request> {
  const target = new URL(url);
  const headers = new Headers({ Host: target.host, Date: new Date(now).toUTCString() });
  headers.set("User-Agent", "EdgeBlog/1.0 (ActivityPub)");
  if (init.method === "POST") {
    headers.set("Content-Type", "application/activity+json");
    headers.set("Digest", await sha256Digest(init.body ?? ""));
  } else {
    headers.set(
      "Accept",
      init.accept ?? 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
    );
  }
  if (init.method === "POST" && init.style === "rfc9421") {
    headers.delete("Host");
    await signRfc9421(target, headers, init.body ?? "", keyId, privateKeyPem, now);
    return new Request(target, { method: "POST", headers, body: init.body });
  }
  const names = init.method === "POST" ? SIGNED_POST : SIGNED_GET;
  const text = signingString(init.method, target, headers, names)!;
  const signature = await signBytes(await importPrivateKey(privateKeyPem), text);
  headers.set(
    "Signature",
    `keyId="${keyId}",algorithm="rsa-sha256",headers="${names.join(" ")}",signature="${signature}"`,
  );
  // `Host` is the URL's own; a Request refuses to carry it, and fetch sets the same value.
  headers.delete("Host");
  return new Request(target, { method: init.method, headers, body: init.body });
}

/** The cavage Signature header's fields; null when it is missing or malformed. */
export function parseSignature(header: string | null): ParsedSignature | null {
  if (!header || header.length > 8192) return null;
  const fields = new Map<string, string>();
  for (const match of header.matchAll(/([a-zA-Z]+)=(?:"([^"]*)"|(\d{1,12}))/g)) {
    fields.set(match[1]!.toLowerCase(), match[2] ?? match[3]!);
  }
  const keyId = fields.get("keyid");
  const signature = fields.get("signature");
  if (!keyId || !signature) return null;
  const int = (name: string) => {
    const value = fields.get(name);
    return value && /^\d{1,12}$/.test(value) ? Number(value) : undefined;
  };
  return {
    keyId,
    signature,
    algorithm: (fields.get("algorithm") ?? "hs2019").toLowerCase(),
    headers: (fields.get("headers") ?? "date").toLowerCase().split(/\s+/).filter(Boolean),
    created: int("created"),
    expires: int("expires"),
  };
}

const CAVAGE_ALGS: Record<string, SignatureAlg | null> = { "rsa-sha256": "rsa-v1_5-sha256", hs2019: null };
const RFC9421_ALGS = new Set<string>(["rsa-v1_5-sha256", "rsa-pss-sha512", "ed25519"]);

function fromCavage(request: Request, parsed: ParsedSignature): IncomingSignature | null {
  if (!(parsed.algorithm in CAVAGE_ALGS)) return null;
  // `created` and `expires` count only when the signature covers them: anyone relaying a captured
  // request could add or change an uncovered parameter to move its time window.
  const covers = (name: string) => parsed.headers.includes(name);
  return {
    scheme: "cavage",
    keyId: parsed.keyId,
    alg: CAVAGE_ALGS[parsed.algorithm] ?? null,
    created: covers("(created)") ? (parsed.created ?? null) : null,
    expires: covers("(expires)") ? (parsed.expires ?? null) : null,
    covered: parsed.headers,
    base: signingString(request.method, new URL(request.url), request.headers, parsed.headers, parsed),
    signature: parsed.signature,
  };
}

/** The request's signature (RFC 9421 first, else cavage); null when there is none we can read. */
export function readSignature(request: Request): IncomingSignature | null {
  const input = request.headers.get("Signature-Input");
  if (input) {
    const parsed = parseRfc9421(input, request.headers.get("Signature"));
    if (!parsed || (parsed.alg !== null && !RFC9421_ALGS.has(parsed.alg))) return null;
    return {
      scheme: "rfc9421",
      keyId: parsed.keyId,
      alg: parsed.alg as SignatureAlg | null,
      created: parsed.created,
      expires: parsed.expires,
      covered: parsed.components,
      base: rfc9421Base(request, parsed.components, parsed.params),
      signature: parsed.signature,
    };
  }
  const parsed = parseSignature(request.headers.get("Signature"));
  return parsed ? fromCavage(request, parsed) : null;
}

export type VerifyFailure = "unsigned" | "malformed" | "date" | "digest" | "headers" | "signature";

/**
 * Mastodon's time window (SignedRequest, signed_request.rb in Mastodon's own repository): a signature lives from `created` (else the
 * Date header) to `expires` (DEFAULT_LIFE_MS after creation when none is named, MAX_LIFE_MS at most),
 * with CLOCK_SKEW_MS of margin on both ends.
 */
export function withinTimeWindow(created: number | null, expires: number | null, date: string | null, now: number) {
  const createdMs = created !== null ? created * 1000 : Date.parse(date ?? "");
  if (!Number.isFinite(createdMs)) return false;
  const declared = expires !== null ? expires * 1000 : createdMs + DEFAULT_LIFE_MS;
  const expiresMs = Math.min(declared, createdMs + MAX_LIFE_MS);
  return createdMs <= now + CLOCK_SKEW_MS && now < expiresMs + CLOCK_SKEW_MS;
}

/**
 * Everything that can be checked without the sender's key, so nothing is fetched for a request that
 * would fail anyway: the covered parts (the target, the host, a time, and the body's digest), the
 * time window, the digest itself.
 */
export async function precheck(
  request: Request,
  body: string,
  sig: IncomingSignature,
  now = Date.now(),
): Promise<VerifyFailure | null> {
  if (sig.base === null) return "headers";
  const has = (name: string) => sig.covered.includes(name);
  const post = request.method === "POST";
  if (sig.scheme === "cavage") {
    if (!has("(request-target)") || !has("host") || !(has("date") || has("(created)"))) return "headers";
    if (post && !has("digest")) return "headers";
  } else {
    const target = has("@target-uri") || ((has("@path") || has("@request-target")) && has("@authority"));
    if (!has("@method") || !target || (sig.created === null && !has("date"))) return "headers";
    if (post && !has("content-digest") && !has("digest")) return "headers";
  }
  const date = has("date") || sig.created === null ? request.headers.get("date") : null;
  if (!withinTimeWindow(sig.created, sig.expires, date, now)) return "date";
  if (post) {
    if (has("content-digest") && !(await contentDigestMatches(request.headers.get("content-digest"), body))) {
      return "digest";
    }
    if (has("digest")) {
      const sent = request.headers.get("digest") ?? "";
      const wanted = (await sha256Digest(body)).slice("SHA-256=".length);
      const sha256 = sent.split(",").find((part) => part.trim().toUpperCase().startsWith("SHA-256="));
      if (!sha256 || sha256.trim().slice("SHA-256=".length) !== wanted) return "digest";
    }
  }
  return null;
}

/** Whether the signature verifies with a public key (SPKI PEM: RSA, or Ed25519). */
export async function verifyWithPem(sig: IncomingSignature, publicKeyPem: string): Promise<boolean> {
  const alg: SignatureAlg = sig.alg ?? (isEd25519Pem(publicKeyPem) ? "ed25519" : "rsa-v1_5-sha256");
  const key = await importPublicKey(publicKeyPem, alg);
  if (!key || sig.base === null) return false;
  try {
    return await verifyAlg(key, alg, fromBase64(sig.signature), new TextEncoder().encode(sig.base));
  } catch {
    return false;
  }
}

/** Verifies a whole cavage-signed request against a key (our own deliveries, in tests and checks). */
export async function verifyRequest(
  request: Request,
  body: string,
  signature: ParsedSignature,
  key: CryptoKey,
  now = Date.now(),
): Promise<VerifyFailure | null> {
  const sig = fromCavage(request, signature);
  if (!sig) return "malformed";
  const failure = await precheck(request, body, sig, now);
  if (failure) return failure;
  const ok = await verifyAlg(key, "rsa-v1_5-sha256", fromBase64(sig.signature), new TextEncoder().encode(sig.base!));
  return ok ? null : "signature";
}
