/**
 * Key pairs through the Web Crypto API only: RSA in PEM (what ActivityPub's publicKeyPem carries) and
 * Ed25519 (the Multikey of `assertionMethod`, and RFC 9421's `ed25519`).
 */

const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
const RSA_PSS = { name: "RSA-PSS", hash: "SHA-512" } as const;
const ED25519 = { name: "Ed25519" } as const;

/** The signature algorithms we verify (RFC 9421 names; draft-cavage's rsa-sha256/hs2019 are rsa-v1_5-sha256). */
export type SignatureAlg = "rsa-v1_5-sha256" | "rsa-pss-sha512" | "ed25519";

export function toBase64(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function pem(label: string, der: ArrayBuffer): string {
  const body = toBase64(der).replace(/.{64}/g, "$&\n");
  return `-----BEGIN ${label}-----\n${body.trimEnd()}\n-----END ${label}-----\n`;
}

function derOf(text: string): Uint8Array<ArrayBuffer> {
  return fromBase64(text.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, ""));
}

/** A fresh RSA-2048 pair as PEM: SPKI public, PKCS#8 private. */
export async function generateKeyPair(): Promise<{ publicKeyPem: string; privateKeyPem: string }> {
  const pair = (await crypto.subtle.generateKey(
    { ...RSA, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const [spki, pkcs8] = await Promise.all([
    crypto.subtle.exportKey("spki", pair.publicKey) as Promise<ArrayBuffer>,
    crypto.subtle.exportKey("pkcs8", pair.privateKey) as Promise<ArrayBuffer>,
  ]);
  return { publicKeyPem: pem("PUBLIC KEY", spki), privateKeyPem: pem("PRIVATE KEY", pkcs8) };
}

export function importPrivateKey(privateKeyPem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("pkcs8", derOf(privateKeyPem), RSA, false, ["sign"]);
}

/** A remote actor's key: SPKI PEM (what Mastodon and nearly everyone publish). Null when unreadable. */
export async function importPublicKey(
  publicKeyPem: string,
  alg: SignatureAlg = "rsa-v1_5-sha256",
): Promise<CryptoKey | null> {
  try {
    const params = alg === "ed25519" ? ED25519 : alg === "rsa-pss-sha512" ? RSA_PSS : RSA;
    return await crypto.subtle.importKey("spki", derOf(publicKeyPem), params, false, ["verify"]);
  } catch {
    return null;
  }
}

/** Whether a SPKI PEM holds an Ed25519 key (its DER names the algorithm 1.3.101.112). */
export function isEd25519Pem(publicKeyPem: string): boolean {
  try {
    const der = derOf(publicKeyPem);
    return der.length === 44 && der[7] === 0x2b && der[8] === 0x65 && der[9] === 0x70;
  } catch {
    return false;
  }
}

/** Verifies bytes with a key imported for `alg`. */
export async function verifyAlg(
  key: CryptoKey,
  alg: SignatureAlg,
  signature: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  try {
    const params = alg === "ed25519" ? ED25519 : alg === "rsa-pss-sha512" ? { name: "RSA-PSS", saltLength: 64 } : RSA;
    return await crypto.subtle.verify(params, key, signature, data);
  } catch {
    return false;
  }
}

/** A fresh Ed25519 pair: the public key as Multikey multibase, the private one as PKCS#8 PEM. */
export async function generateEd25519(): Promise<{ edPublicMultibase: string; edPrivateKeyPem: string }> {
  const pair = (await crypto.subtle.generateKey(ED25519, true, ["sign", "verify"])) as CryptoKeyPair;
  const [raw, pkcs8] = await Promise.all([
    crypto.subtle.exportKey("raw", pair.publicKey) as Promise<ArrayBuffer>,
    crypto.subtle.exportKey("pkcs8", pair.privateKey) as Promise<ArrayBuffer>,
  ]);
  return { edPublicMultibase: ed25519Multibase(new Uint8Array(raw)), edPrivateKeyPem: pem("PRIVATE KEY", pkcs8) };
}

export function importEd25519Private(privateKeyPem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("pkcs8", derOf(privateKeyPem), ED25519, false, ["sign"]);
}

export async function signEd25519(key: CryptoKey, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.sign(ED25519, key, data));
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function base58btc(bytes: Uint8Array): string {
  // Little-endian base-58 digits, grown as each byte is carried in.
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! * 256;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  return (
    "1".repeat(zeros) +
    digits
      .reverse()
      .map((d) => BASE58[d])
      .join("")
  );
}

export function fromBase58btc(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[1-9A-HJ-NP-Za-km-z]+$/.test(text) || text.length > 200) return null;
  const bytes: number[] = [];
  for (const ch of text) {
    let carry = BASE58.indexOf(ch);
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  let zeros = 0;
  while (text[zeros] === "1") zeros++;
  const out = new Uint8Array(new ArrayBuffer(zeros + bytes.length));
  out.set(bytes.reverse(), zeros);
  return out;
}

/** An Ed25519 public key as a Multikey `publicKeyMultibase`: "z" + base58btc(0xed 0x01 + 32 bytes). */
export function ed25519Multibase(raw: Uint8Array): string {
  const prefixed = new Uint8Array(34);
  prefixed.set([0xed, 0x01]);
  prefixed.set(raw, 2);
  return `z${base58btc(prefixed)}`;
}

/** A Multikey's Ed25519 public key; null for anything else. */
export async function importMultikey(multibase: string): Promise<CryptoKey | null> {
  if (!multibase.startsWith("z")) return null;
  const bytes = fromBase58btc(multibase.slice(1));
  if (!bytes || bytes.length !== 34 || bytes[0] !== 0xed || bytes[1] !== 0x01) return null;
  try {
    return await crypto.subtle.importKey("raw", bytes.slice(2), ED25519, false, ["verify"]);
  } catch {
    return null;
  }
}

export async function signBytes(key: CryptoKey, text: string): Promise<string> {
  return toBase64(await crypto.subtle.sign(RSA, key, new TextEncoder().encode(text)));
}

export async function verifyBytes(key: CryptoKey, signature: string, text: string): Promise<boolean> {
  try {
    return await crypto.subtle.verify(RSA, key, fromBase64(signature), new TextEncoder().encode(text));
  } catch {
    return false;
  }
}

/** The Digest header's value for a body: SHA-256, base64. */
export async function sha256Digest(body: string | ArrayBuffer): Promise<string> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return `SHA-256=${toBase64(await crypto.subtle.digest("SHA-256", bytes))}`;
}
