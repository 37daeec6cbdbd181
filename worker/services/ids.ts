const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** A random, opaque, URL-safe id (20 characters, ~103 bits). */
export function newId(length = 20): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = "";
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

/** Ids come from URLs: anything that is not shaped like one of ours cannot exist. */
export function isIdShaped(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-z]{8,40}$/.test(value);
}
