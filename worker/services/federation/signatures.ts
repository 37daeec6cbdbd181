import { importPrivateKey, sha256Digest, signBytes, verifyBytes } from "#worker/services/federation/keys.ts";

/**
 * HTTP Signatures as the fediverse speaks them (draft-cavage-http-signatures-12, `rsa-sha256` and the
 * `hs2019` label Mastodon also accepts): what Mastodon, Misskey, Pleroma and Fedify's fallback use.
 */

/** How far a signed request's Date may be from now. */
export const DATE_WINDOW_MS = 5 * 60 * 1000;

/** The headers every POST we sign covers. */
const SIGNED_POST = ["(request-target)", "host", "date", "digest", "content-type"];
const SIGNED_GET = ["(request-target)", "host", "date", "accept"];

function signingString(method: string, url: URL, headers: Headers, names: string[]): string | null {
  const lines: string[] = [];
  for (const name of names) {
    if (name === "(request-target)") {
      lines.push(`(request-target): ${method.toLowerCase()} ${url.pathname}${url.search}`);
      continue;
    }
    const value = name === "host" ? (headers.get("host") ?? url.host) : headers.get(name);
    if (value === null) return null;
    lines.push(`${name}: ${value}`);
  }
  return lines.join("\n");
}

/** A request signed with a local actor's key (`keyId` is the actor's key URL). */
export async function signedRequest(
  url: string,
  init: { method: "GET" | "POST"; body?: string; accept?: string },
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

export interface ParsedSignature {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: string;
}

/** The Signature header's fields; null when it is missing or malformed. */
export function parseSignature(header: string | null): ParsedSignature | null {
  if (!header) return null;
  const fields = new Map<string, string>();
  for (const match of header.matchAll(/([a-zA-Z]+)="([^"]*)"/g)) fields.set(match[1]!.toLowerCase(), match[2]!);
  const keyId = fields.get("keyid");
  const signature = fields.get("signature");
  if (!keyId || !signature) return null;
  return {
    keyId,
    signature,
    algorithm: (fields.get("algorithm") ?? "hs2019").toLowerCase(),
    headers: (fields.get("headers") ?? "date").toLowerCase().split(/\s+/).filter(Boolean),
  };
}

export type VerifyFailure = "unsigned" | "malformed" | "date" | "digest" | "headers" | "signature";

/**
 * Checks an incoming request's signature against a public key: the signed headers must include the
 * request target, the host and the date (within DATE_WINDOW_MS), and, for a body, its digest, which
 * must match the body received.
 */
export async function verifyRequest(
  request: Request,
  body: string,
  signature: ParsedSignature,
  key: CryptoKey,
  now = Date.now(),
): Promise<VerifyFailure | null> {
  if (!["rsa-sha256", "hs2019"].includes(signature.algorithm)) return "malformed";
  const required = ["(request-target)", "host", "date"];
  if (request.method === "POST") required.push("digest");
  if (!required.every((name) => signature.headers.includes(name))) return "headers";
  const date = Date.parse(request.headers.get("date") ?? "");
  if (!Number.isFinite(date) || Math.abs(now - date) > DATE_WINDOW_MS) return "date";
  if (request.method === "POST") {
    const sent = request.headers.get("digest") ?? "";
    const wanted = await sha256Digest(body);
    const sha256 = sent.split(",").find((part) => part.trim().toUpperCase().startsWith("SHA-256="));
    if (!sha256 || sha256.trim().slice("SHA-256=".length) !== wanted.slice("SHA-256=".length)) return "digest";
  }
  const text = signingString(request.method, new URL(request.url), request.headers, signature.headers);
  if (text === null) return "headers";
  return (await verifyBytes(key, signature.signature, text)) ? null : "signature";
}
