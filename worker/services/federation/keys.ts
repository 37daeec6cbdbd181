/** RSA key pairs in PEM (what ActivityPub's publicKeyPem carries), through the Web Crypto API only. */

const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

function toBase64(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
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
export async function importPublicKey(publicKeyPem: string): Promise<CryptoKey | null> {
  try {
    return await crypto.subtle.importKey("spki", derOf(publicKeyPem), RSA, false, ["verify"]);
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
