const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** The largest multiple of 36 a byte can hold: bytes at or above it are drawn again, so no character is likelier. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** A random, opaque, URL-safe id (20 characters, ~103 bits), every character equally likely. */
export function newId(length = 20): string {
  let id = "";
  while (id.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < UNBIASED_LIMIT && id.length < length) id += ALPHABET[byte % ALPHABET.length];
    }
  }
  return id;
}

/** Ids come from URLs: anything that is not shaped like one of ours cannot exist. */
export function isIdShaped(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-z]{8,40}$/.test(value);
}
