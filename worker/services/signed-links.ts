/**
 * Signed, stateless link tokens (newsletter confirmation and one-click unsubscribe): the fields a link
 * carries, joined by dots, then an HMAC-SHA256 of them keyed from SESSION_SECRET and the link's purpose.
 * Changing any character, or using one purpose's token for another, fails the check (WebCrypto's
 * constant-time verify). Nothing is stored, so an unsubscribe link in a years-old message still works.
 */

const encoder = new TextEncoder();

function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function keyFor(secret: string, purpose: string): Promise<CryptoKey> {
  if (secret.length < 32) throw new Error("SESSION_SECRET must be at least 32 characters to sign links");
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(`${purpose}\u0000${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

/** Fields may hold letters, digits, "_" and "-" (ids, base-36 times). */
const FIELD = /^[A-Za-z0-9_-]{1,64}$/;

export async function signLink(secret: string, purpose: string, fields: string[]): Promise<string> {
  if (!fields.every((f) => FIELD.test(f))) throw new Error("a signed link field has characters it cannot carry");
  const body = fields.join(".");
  const signature = await crypto.subtle.sign("HMAC", await keyFor(secret, purpose), encoder.encode(body));
  return `${body}.${base64url(signature)}`;
}

/** The fields of a token signed for `purpose` with `count` fields, or null for anything else. */
export async function verifyLink(
  secret: string,
  purpose: string,
  token: unknown,
  count: number,
): Promise<string[] | null> {
  if (typeof token !== "string" || token.length > 400) return null;
  const parts = token.split(".");
  if (parts.length !== count + 1) return null;
  const fields = parts.slice(0, count);
  if (!fields.every((f) => FIELD.test(f))) return null;
  const signature = fromBase64url(parts[count]!);
  // Only the canonical spelling: base64 has spare bits in its last character, so two spellings could decode alike.
  if (!signature || signature.length !== 32 || base64url(signature.buffer as ArrayBuffer) !== parts[count]) return null;
  const ok = await crypto.subtle.verify(
    "HMAC",
    await keyFor(secret, purpose),
    signature,
    encoder.encode(fields.join(".")),
  );
  return ok ? fields : null;
}
